package pi.host.it.plugin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Throws from its body. */
public final class ThrowingPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) {
        throw new IllegalStateException("plugin exploded");
    }
}
