package pi.host.it.plugin;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Never finishes by itself: it waits until the host cancels the call (at its timeout), then records that. */
public final class HangingPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) throws InterruptedException {
        long giveUp = System.nanoTime() + 60_000_000_000L; // a bound, so a broken host cannot leak this thread
        while (!call.isCancelled() && System.nanoTime() < giveUp) {
            Thread.sleep(5);
        }
        SideEffects.record(call.toolName(), call.isCancelled() ? "cancelled" : "gave up");
        return ToolResult.ok("too late");
    }
}
