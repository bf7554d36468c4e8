package pi.host.it.plugin;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/**
 * Records that it started, then waits until the test releases it (a marker file) or the call is
 * cancelled, so the test can stop, update or uninstall the plugin's bundle while the call runs.
 * The marker is a file because the test and the plugin's copy of this class live in different class
 * loaders; the wait is woken by the file's creation (a WatchService) or by the cancellation.
 */
public final class WaitingPluginTool implements PluginTool {
    @Override
    public ToolResult execute(ToolCall call) throws InterruptedException, IOException {
        SideEffects.record(call.toolName(), "started");
        Path marker = SideEffects.marker(call.toolName());
        Files.createDirectories(marker.getParent());
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (WatchService watcher = marker.getFileSystem().newWatchService()) {
            marker.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
            call.onCancel(() -> {
                try {
                    watcher.close(); // wakes the poll below
                } catch (IOException e) {
                    // closing a watch service does not fail in practice; the bound still ends the wait
                }
            });
            long left;
            while (!Files.exists(marker) && !call.isCancelled() && (left = giveUp - System.nanoTime()) > 0) {
                WatchKey key = watcher.poll(left, TimeUnit.NANOSECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
            }
        } catch (ClosedWatchServiceException e) {
            // cancelled
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
