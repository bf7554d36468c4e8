package pi.host.it.plugin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Returns no result at all. */
public final class MalformedPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) {
        return null;
    }
}
