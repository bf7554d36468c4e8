package pi.host.it.plugin;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/** Never finishes by itself: it waits until the host cancels the call (at its timeout), then records that. */
public final class HangingPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) throws InterruptedException {
        CountDownLatch cancelled = new CountDownLatch(1);
        call.onCancel(cancelled::countDown);
        // a bound, so a broken host cannot leak this thread
        boolean wasCancelled = cancelled.await(60, TimeUnit.SECONDS) || call.isCancelled();
        SideEffects.record(call.toolName(), wasCancelled ? "cancelled" : "gave up");
        return ToolResult.ok("too late");
    }
}
