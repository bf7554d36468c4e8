package pi.host.it.plugin;

import java.nio.file.Files;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/**
 * Records that it started, then waits until the test releases it (a marker file) or the call is
 * cancelled, so the test can stop, update or uninstall the plugin's bundle while the call runs.
 */
public final class WaitingPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) throws InterruptedException {
        SideEffects.record(call.toolName(), "started");
        long giveUp = System.nanoTime() + 30_000_000_000L;
        while (!Files.exists(SideEffects.marker(call.toolName())) && !call.isCancelled()
                && System.nanoTime() < giveUp) {
            Thread.sleep(5);
        }
        // a class this bundle has not loaded yet: after an uninstall and refresh it may no longer load
        return Finish.result();
    }

    /** Loaded only at the end of a call. */
    public static final class Finish {
        public static ToolResult result() {
            return ToolResult.ok("finished");
        }
    }
}
