package pi.host.core.internal.execute;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.AsyncBody;

/**
 * Runs a provider's body with the call's budget and cancellation (spec §3): a timeout cancels the
 * call and answers at once; an abort of a read-only tool answers at once (its body may finish in the
 * background, it mutates nothing); an abort of anything else waits for the provider's own result,
 * so a stop cannot hide a write that is still running.
 *
 * <p>The body runs on the calling thread, not on a worker: handing it over and waking the caller
 * again were two thread wake-ups per call, measured as a large share of a short call's cost on two
 * cores. The outcome therefore goes to a callback, exactly once: from the calling thread when the
 * body returns, or, when the timeout or an abort comes first, from a thread of this runner while the
 * body goes on (its late result is dropped). An {@link AsyncBody} is started on the calling thread
 * and ends from the thread that completes it (the MCP bridge's answer arrives on the SDK's reader
 * thread, which then writes the audit row and the answer instead of waking the caller to do it).
 */
final class ToolRunner implements AutoCloseable {

    /** How a body ended. */
    enum Kind {
        DONE, FAILED, TIMEOUT, ABORTED
    }

    /** The outcome of one body: a result, or why there is none. */
    record Outcome(Kind kind, ToolResult result, String failure) {
    }

    private final Deadlines deadlines = new Deadlines("pi-tool-deadlines");
    /** Answers calls that end before their body does, and runs {@link #hand(Runnable)} work. */
    private final ExecutorService threads;

    ToolRunner() {
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "pi-tool-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs the body on this thread and gives its outcome to {@code done} exactly once (see the class
     * comment). Returns when the body has returned, which may be long after {@code done} ran; an
     * {@link AsyncBody} returns once started, and its outcome comes when its stage completes.
     */
    void run(ToolProvider provider, HostToolCall call, CallCancellation cancel, long timeoutMs, boolean readOnly,
            Consumer<Outcome> done) {
        AtomicBoolean ended = new AtomicBoolean();
        Deadlines.Deadline timeout = deadlines.arm(TimeUnit.MILLISECONDS.toNanos(timeoutMs), () -> early(() -> {
            if (ended.compareAndSet(false, true)) {
                cancel.cancel("timeout"); // after claiming the end: the body's reaction to it cannot win the race
                done.accept(new Outcome(Kind.TIMEOUT, null, null));
            }
        }));
        CallCancellation.AutoCloseableAction abort = cancel.onCancel(() -> {
            if (readOnly && !ended.get()) {
                early(() -> {
                    if (ended.compareAndSet(false, true)) {
                        done.accept(new Outcome(Kind.ABORTED, null, null));
                    }
                });
            }
        });
        if (provider instanceof AsyncBody async) {
            started(async, call).whenComplete((result, failure) -> {
                timeout.disarm();
                abort.close();
                if (ended.compareAndSet(false, true)) {
                    try {
                        done.accept(outcome(result, failure));
                    } catch (RuntimeException | Error e) {
                        // no caller to report it to: the completing thread is the body's own
                        System.getLogger(ToolRunner.class.getName()).log(System.Logger.Level.ERROR,
                                "ending a call failed", e);
                    }
                }
            });
            return;
        }
        Outcome outcome;
        try {
            outcome = body(provider, call);
        } finally {
            timeout.disarm();
            abort.close();
            Thread.interrupted(); // an interrupt meant for the body must not reach this thread's next task
        }
        if (ended.compareAndSet(false, true)) {
            done.accept(outcome);
        }
    }

    /** The body's stage; a start that throws is a failed stage. */
    private static CompletionStage<ToolResult> started(AsyncBody body, HostToolCall call) {
        try {
            CompletionStage<ToolResult> stage = body.start(call);
            return stage != null ? stage
                    : CompletableFuture.failedFuture(new IllegalStateException("no stage"));
        } catch (Exception | LinkageError | StackOverflowError e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static Outcome outcome(ToolResult result, Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            return new Outcome(Kind.FAILED, null, cause.toString());
        }
        return result == null ? new Outcome(Kind.FAILED, null, "the tool returned no result")
                : new Outcome(Kind.DONE, result, null);
    }

    /** Runs {@code work} on another thread (a caller that must get its thread back at the timeout). */
    void hand(Runnable work) throws RejectedExecutionException {
        threads.execute(work);
    }

    /** An early end runs on a thread of its own: it writes the audit row and answers the client. */
    private void early(Runnable end) {
        try {
            threads.execute(() -> {
                try {
                    end.run();
                } catch (RuntimeException | Error e) {
                    System.getLogger(ToolRunner.class.getName()).log(System.Logger.Level.ERROR,
                            "ending a call early failed", e);
                }
            });
        } catch (RejectedExecutionException shuttingDown) {
            end.run();
        }
    }

    private static Outcome body(ToolProvider provider, HostToolCall call) {
        try {
            return outcome(provider.execute(call), null);
        } catch (Exception | LinkageError | StackOverflowError e) {
            // a plugin that throws (or was uninstalled mid-call) is a typed failure, never the host's problem
            return new Outcome(Kind.FAILED, null, e.toString());
        }
    }

    @Override
    public void close() {
        deadlines.close();
        threads.shutdownNow();
    }
}
