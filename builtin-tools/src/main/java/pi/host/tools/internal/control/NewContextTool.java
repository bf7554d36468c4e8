package pi.host.tools.internal.control;

import org.osgi.service.component.annotations.Component;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code new_context} (spec §10.1): asks the runtime to start a new context window at the next turn
 * boundary. It changes no environment state; the flag in the result is all it does.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.CONTROL)
@Tool(name = "new_context", risk = Risk.LOW)
public final class NewContextTool implements ToolProvider {

    /** The details key the runtime reads at the turn boundary. */
    public static final String FLAG = "newContext";

    @Override
    public String description() {
        return "Start a new context window at the next turn boundary. Takes no parameters and changes nothing"
                + " in the workspace.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return ToolResult.builder()
                .text("A new context window will start at the next turn boundary.")
                .detail(FLAG, true)
                .build();
    }
}
