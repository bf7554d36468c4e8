package pi.host.launcher.dropin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** A valid plugin's tool whose class marks when it is initialised: the runtime may do that only after the grant. */
public final class MarkingTool implements PluginTool {
    static {
        Marker.touch(MarkingTool.class);
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return ToolResult.ok("marked");
    }
}
