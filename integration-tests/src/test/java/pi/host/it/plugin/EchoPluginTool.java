package pi.host.it.plugin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Records and returns its {@code text} argument (a plugin tool of the test plugins). */
public final class EchoPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) {
        String text = String.valueOf(call.arguments().get("text"));
        SideEffects.record(call.toolName(), text);
        return ToolResult.ok(text);
    }
}
