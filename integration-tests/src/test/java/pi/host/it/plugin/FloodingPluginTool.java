package pi.host.it.plugin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Streams far more output than the host forwards, and returns a result far over the result bound. */
public final class FloodingPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) {
        String chunk = "x".repeat(1024);
        for (int i = 0; i < 8192; i++) {
            call.output(ToolCall.Stream.STDOUT, chunk);
        }
        return ToolResult.ok("y".repeat(4 * 1024 * 1024));
    }
}
