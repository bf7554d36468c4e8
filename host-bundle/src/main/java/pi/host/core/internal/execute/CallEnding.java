package pi.host.core.internal.execute;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * How one call ends: once, from whichever thread gets there first (the body's own, or the timeout's
 * or an abort's while the body goes on). Each step of the pipeline that holds something until the
 * end (the cancellation record, the admission ticket) adds its release with {@link #after}, so the
 * release happens whichever way the call ends.
 */
final class CallEnding {

    private final AtomicBoolean ended;
    private final Consumer<ResultEnvelope> action;

    /** @param last what ending does once the inner steps' releases have run: audit and answer */
    CallEnding(Consumer<ResultEnvelope> last) {
        this(new AtomicBoolean(), last);
    }

    private CallEnding(AtomicBoolean ended, Consumer<ResultEnvelope> action) {
        this.ended = ended;
        this.action = action;
    }

    /** The same ending with {@code release} run first. */
    CallEnding after(Runnable release) {
        return new CallEnding(ended, result -> {
            release.run();
            action.accept(result);
        });
    }

    /** True once the call has ended. */
    boolean ended() {
        return ended.get();
    }

    /** Ends the call with {@code result}; false, doing nothing, when it had already ended. */
    boolean end(ResultEnvelope result) {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        action.accept(result);
        return true;
    }
}
