package pi.host.core.internal.execute;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;

/**
 * Runs a provider's body on a worker thread with the call's budget and cancellation (spec §3):
 * a timeout cancels the call and answers at once; an abort of a read-only tool answers at once
 * (its worker may finish in the background, it mutates nothing); an abort of anything else waits
 * for the provider's own result, so a stop cannot hide a write that is still running.
 */
final class ToolRunner implements AutoCloseable {

    /** How a body ended. */
    enum Kind {
        DONE, FAILED, TIMEOUT, ABORTED
    }

    /** The outcome of one body: a result, or why there is none. */
    record Outcome(Kind kind, ToolResult result, String failure) {
    }

    private final ExecutorService workers;

    ToolRunner() {
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "pi-tool-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    Outcome run(ToolProvider provider, HostToolCall call, CallCancellation cancel, long timeoutMs,
            boolean readOnly) {
        CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        try {
            workers.execute(() -> outcome.complete(body(provider, call)));
        } catch (RejectedExecutionException e) {
            return new Outcome(Kind.FAILED, null, "the host is shutting down");
        }
        try (CallCancellation.AutoCloseableAction hook = cancel.onCancel(() -> {
            if (readOnly) {
                outcome.complete(new Outcome(Kind.ABORTED, null, null));
            }
        })) {
            return outcome.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            cancel.cancel("timeout");
            return new Outcome(Kind.TIMEOUT, null, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel.cancel("interrupted");
            return new Outcome(Kind.ABORTED, null, null);
        } catch (ExecutionException e) {
            return new Outcome(Kind.FAILED, null, String.valueOf(e.getCause()));
        }
    }

    private static Outcome body(ToolProvider provider, HostToolCall call) {
        try {
            ToolResult result = provider.execute(call);
            if (result == null) {
                return new Outcome(Kind.FAILED, null, "the tool returned no result");
            }
            return new Outcome(Kind.DONE, result, null);
        } catch (Exception | LinkageError | StackOverflowError e) {
            // a plugin that throws (or was uninstalled mid-call) is a typed failure, never the host's problem
            return new Outcome(Kind.FAILED, null, e.toString());
        }
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
