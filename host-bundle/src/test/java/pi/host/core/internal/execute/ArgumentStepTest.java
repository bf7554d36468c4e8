package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.args.ArgumentAliases;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.registry.Preparer;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolFacts;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.spi.ToolKind;

class ArgumentStepTest extends StepTest {

    ArgumentStep step;

    private static final ToolProvider READ_LIKE = StepKit.provider("{\"type\":\"object\",\"properties\":{"
            + "\"path\":{\"type\":\"string\"},\"file_path\":{\"type\":\"string\"},\"limit\":{\"type\":\"integer\"}},"
            + "\"additionalProperties\":false}", call -> ToolResult.ok(""));

    private static final RegisteredTool READ = new RegisteredTool("Read", "Read", "Read", ToolOrigin.BUILTIN, null,
            Risk.LOW, true, List.of(), List.of(), false, "", new ToolFacts(ToolKind.READ,
                    List.of(ArgumentAliases.Alias.parse("path=file_path")), true, false, Preparer.none("Read")),
            false, 1000, READ_LIKE, 1, 42, null, null);

    @BeforeEach
    void setUp() throws Exception {
        step = new ArgumentStep(new Catalog(Registered.registry()));
    }

    private CallState call(String args) throws Exception {
        CallState c = kit.call(kit.session("agent", "ask"), READ, "{}");
        c = new CallState(new ExecuteRequest(c.request.sessionId(), "t", "c", "Read", Json.mapper().readTree(args),
                null, null), "tr");
        c.first.tool = READ;
        return c;
    }

    @Test
    void theDeclaredAliasIsFoldedThenTheSchemaJudges() throws Exception {
        CallState c = call("{\"file_path\":\"a.txt\",\"limit\":3}");
        assertThat(step.apply(c, c.first)).isNull();
        assertThat(c.arguments).isEqualTo(Json.mapper().readTree("{\"path\":\"a.txt\",\"limit\":3}"));
        assertThat(c.plainArguments).isEqualTo(Map.of("path", "a.txt", "limit", 3));
        assertThat(c.request.arguments().has("file_path")).as("the request is never changed").isTrue();
    }

    @Test
    void badArgumentsAreInvalidArgument() throws Exception {
        for (String bad : List.of("{\"limit\":3}", "{\"path\":\"a\",\"limit\":\"three\"}", "{\"path\":\"a\",\"x\":1}")) {
            CallState c = call(bad);
            ResultEnvelope r = step.apply(c, c.first);
            assertThat(r.errorCode()).as(bad).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(c.arguments).isNull();
        }
    }

    @Test
    void argumentsThatAreNoObjectAreInvalid() throws Exception {
        CallState c = call("[1]");
        assertThat(step.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }
}
