package pi.host.plugins.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.PluginTool;
import pi.host.api.ToolResult;
import pi.host.plugins.check.ToolSpec;
import pi.host.testkit.FakeToolCall;

/** The adapter between the host and a plugin's tool: the action check happens before plugin code, results are checked after. */
class PluginToolAdapterTest {

    private static final String SCHEMA = "{\"type\":\"object\"}";

    @BeforeEach
    void reset() {
        Fixtures.CALLS.set(0);
    }

    private static ToolSpec spec(List<String> actions) {
        return new ToolSpec("git", "plugin_git_git", "Git facts", Fixtures.Counting.class.getName(), "low", true,
                actions, List.of(), SCHEMA, 1000, "");
    }

    private static PluginToolAdapter adapter(List<String> actions, PluginTool tool) {
        return new PluginToolAdapter("git", spec(actions), tool);
    }

    private static Map<String, Object> action(Object action) {
        Map<String, Object> args = new HashMap<>();
        args.put("action", action);
        return args;
    }

    @Test
    void describesTheToolFromTheDescriptor() {
        PluginToolAdapter a = adapter(List.of(), new Fixtures.Counting());
        assertThat(a.description()).isEqualTo("Git facts");
        assertThat(a.inputSchema()).isEqualTo(SCHEMA);
    }

    @Test
    void aDeclaredActionRunsThePlugin() throws Exception {
        ToolResult r = adapter(List.of("status", "commit"), new Fixtures.Counting()).execute(call(action("commit")));
        assertThat(r.ok()).isTrue();
        assertThat(r.text()).containsExactly("ran commit");
        assertThat(Fixtures.CALLS).hasValue(1);
    }

    @Test
    void aMissingActionIsPermissionDeniedBeforeThePluginRuns() throws Exception {
        ToolResult r = adapter(List.of("status"), new Fixtures.Counting()).execute(call(Map.of()));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(r.text().get(0)).contains("no action was given");
        assertThat(Fixtures.CALLS).hasValue(0);
    }

    @Test
    void aCaseVariantIsPermissionDeniedBeforeThePluginRuns() throws Exception {
        ToolResult r = adapter(List.of("status"), new Fixtures.Counting()).execute(call(action("Status")));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(Fixtures.CALLS).hasValue(0);
    }

    @Test
    void anUndeclaredActionIsPermissionDeniedBeforeThePluginRuns() throws Exception {
        ToolResult r = adapter(List.of("status"), new Fixtures.Counting()).execute(call(action("push")));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(r.text().get(0)).contains("'push' is not declared");
        assertThat(Fixtures.CALLS).hasValue(0);
    }

    @Test
    void anActionThatIsNotAStringIsPermissionDenied() throws Exception {
        ToolResult r = adapter(List.of("status"), new Fixtures.Counting()).execute(call(action(1)));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(Fixtures.CALLS).hasValue(0);
    }

    @Test
    void aToolWithoutActionsTakesAnyArguments() throws Exception {
        ToolResult r = adapter(List.of(), new Fixtures.Counting()).execute(call(Map.of("text", "x")));
        assertThat(r.ok()).isTrue();
    }

    @Test
    void aNullResultIsAMalformedResult() throws Exception {
        ToolResult r = adapter(List.of(), new Fixtures.ReturnsNull()).execute(call(Map.of()));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_FAILED);
        assertThat(r.text().get(0)).contains("malformed result", "no result (null)");
    }

    @Test
    void aThrowingPluginPropagatesForTheHostToMapToToolFailed() {
        assertThatThrownBy(() -> adapter(List.of(), new Fixtures.Throws()).execute(call(Map.of())))
                .hasMessage("boom");
    }

    /** The adapter only reads the arguments: the kit's call, named as the plugin's tool. */
    private static FakeToolCall call(Map<String, Object> arguments) {
        return new FakeToolCall(Path.of("/tmp"), arguments).toolName("git");
    }
}
