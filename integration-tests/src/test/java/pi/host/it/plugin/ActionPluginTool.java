package pi.host.it.plugin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Records and answers which action ran (a plugin tool of the test plugins). */
public final class ActionPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) {
        Object action = call.arguments().get("action");
        SideEffects.record(call.toolName(), "ran " + action);
        return ToolResult.ok("ran " + action);
    }
}
