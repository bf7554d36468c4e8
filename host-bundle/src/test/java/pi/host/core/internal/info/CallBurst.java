package pi.host.core.internal.info;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A burst of short tool calls on a {@link FirstAnswer}, one every 10 ms, until closed (for tests). */
final class CallBurst implements AutoCloseable {

    private final ScheduledExecutorService calls = Executors.newSingleThreadScheduledExecutor();

    CallBurst(FirstAnswer first) {
        calls.scheduleAtFixedRate(() -> {
            first.callStarted();
            first.callEnded();
        }, 0, 10, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        calls.shutdownNow();
        calls.awaitTermination(10, TimeUnit.SECONDS);
    }
}
