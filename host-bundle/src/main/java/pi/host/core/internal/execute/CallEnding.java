package pi.host.core.internal.execute;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * How one call ends: once, from whichever thread gets there first (the body's own, or the timeout's
 * or an abort's while the body goes on). Each step of the pipeline that holds something until the
 * end (the cancellation record, the admission ticket) adds its release with {@link #after}, so the
 * release happens whichever way the call ends.
 *
 * <p>The releases are a list walked in a loop, newest first, not a lambda per release around the
 * previous ending: C2 inlined that chain of one lambda class into itself, and the call's ending was one of
 * the largest compilations of a fresh host's first calls, made twice (docs/performance-log.md, "branch
 * `c2big12`").
 */
final class CallEnding {

    private final AtomicBoolean ended;
    /** Run first; null on the innermost ending. */
    private final Runnable release;
    /** The ending this one was made from, whose releases run after {@link #release}. */
    private final CallEnding inner;
    private final Consumer<ResultEnvelope> last;

    /** @param last what ending does once the inner steps' releases have run: audit and answer */
    CallEnding(Consumer<ResultEnvelope> last) {
        this(new AtomicBoolean(), null, null, last);
    }

    private CallEnding(AtomicBoolean ended, Runnable release, CallEnding inner, Consumer<ResultEnvelope> last) {
        this.ended = ended;
        this.release = release;
        this.inner = inner;
        this.last = last;
    }

    /** The same ending with {@code release} run first. */
    CallEnding after(Runnable release) {
        return new CallEnding(ended, release, this, last);
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
        for (CallEnding e = this; e.release != null; e = e.inner) {
            e.release.run();
        }
        last.accept(result);
        return true;
    }
}
