package pi.host.core.internal.rpc;

import java.util.ArrayList;
import java.util.List;

/**
 * Lets one thread's notifications wait for its next answer: while a batch is open on a thread, a
 * connection whose sink is a {@link BufferedSink} only buffers the notifications that thread sends;
 * the next answer it writes flushes them with it, and closing the batch flushes what is still held
 * (no answer followed). The pipeline opens one around a call's end, so its {@code tool.completed} and
 * its answer leave as one stdout write, the client's reader waking once (docs/decisions.md). Order and
 * content are unchanged; only a notification's flush moves, to its answer's. Other threads' messages
 * are never held: a flush they cause sends the held lines too, earlier.
 */
public final class OutputBatch implements AutoCloseable {

    private static final ThreadLocal<OutputBatch> OPEN = new ThreadLocal<>();
    /** What an open inside an open batch returns: the outer batch flushes. */
    private static final OutputBatch NESTED = new OutputBatch();

    /** The sinks holding this thread's unflushed messages; usually one. */
    private final List<BufferedSink> held = new ArrayList<>(2);

    private OutputBatch() {
    }

    /** Opens a batch on this thread; close it (try-with-resources) in the same thread. */
    public static OutputBatch open() {
        if (OPEN.get() != null) {
            return NESTED;
        }
        OutputBatch batch = new OutputBatch();
        OPEN.set(batch);
        return batch;
    }

    /**
     * True when a batch is open on this thread: the caller writes without flushing and the batch
     * flushes {@code sink} when it closes. Called with the sink's monitor held.
     */
    static boolean holds(BufferedSink sink) {
        OutputBatch batch = OPEN.get();
        if (batch == null) {
            return false;
        }
        if (!batch.held.contains(sink)) {
            batch.held.add(sink);
        }
        return true;
    }

    /** {@code sink} was flushed on this thread: nothing of this thread's batch waits in it any more. */
    static void flushed(BufferedSink sink) {
        OutputBatch batch = OPEN.get();
        if (batch != null) {
            batch.held.remove(sink);
        }
    }

    /** Flushes every sink that holds a message of this batch; a sink that fails does not stop the others. */
    @Override
    public void close() {
        if (this == NESTED) {
            return;
        }
        OPEN.remove();
        for (BufferedSink sink : held) {
            try {
                synchronized (sink) {
                    sink.flush();
                }
            } catch (RuntimeException e) {
                // as with an answer that cannot be written: the reader finds the closed stream
                System.getLogger(OutputBatch.class.getName()).log(System.Logger.Level.WARNING,
                        "a held message could not be sent", e);
            }
        }
    }
}
