package @PACKAGE@;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

/** The tool driven directly with a fake call, as the host would call it. */
class HelloToolTest {

    @TempDir
    Path workspace;

    private final HelloTool tool = new HelloTool();

    @Test
    void greetsByName() {
        ToolResult r = tool.execute(new FakeToolCall(workspace, Map.of("action", "greet", "name", "Ada")));
        assertTrue(r.ok(), r::toString);
        assertEquals("Hello, Ada!", String.join("\n", r.text()));
        assertEquals("Ada", r.details().get("greeted"));
    }

    @Test
    void greetsTheWorldByDefault() {
        ToolResult r = tool.execute(new FakeToolCall(workspace, Map.of("action", "greet")));
        assertEquals("Hello, world!", String.join("\n", r.text()));
    }

    @Test
    void anUnknownActionIsInvalid() {
        ToolResult r = tool.execute(new FakeToolCall(workspace, Map.of("action", "shout")));
        assertEquals(ErrorCode.INVALID_ARGUMENT, r.errorCode());
        assertEquals("action must be greet, not shout", String.join("\n", r.text()));
    }
}
