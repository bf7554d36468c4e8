package @PACKAGE@;

import pi.host.api.ErrorCode;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/**
 * The {@code hello} tool of plugin {@code @ID@}. Its name, description, schema, risk and actions are
 * in src/main/resources/META-INF/pi-plugin.json; this class is only the behaviour. The host calls it
 * after validating the arguments against the schema and checking the action; it applies the timeout
 * and the output bounds itself. Return failures as results, never as exceptions.
 */
public final class HelloTool implements PluginTool {

    @Override
    public ToolResult execute(ToolCall call) {
        Object action = call.arguments().get("action");
        if (!"greet".equals(action)) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "action must be greet, not " + action);
        }
        Object name = call.arguments().getOrDefault("name", "world");
        return ToolResult.builder()
                .text("Hello, " + name + "!")
                .detail("greeted", name)
                .build();
    }
}
