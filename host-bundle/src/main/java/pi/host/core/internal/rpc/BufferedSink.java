package pi.host.core.internal.rpc;

import java.util.function.Consumer;

/**
 * A connection's sink that can take a message without sending it at once: {@link #accept} writes and
 * flushes (one stdout write), {@link #write} only buffers, and {@link #flush} sends what was buffered.
 * An {@link OutputBatch} uses the two halves to send several messages of one thread in one write.
 * Every method is called with the sink's own monitor held, so calls never overlap.
 */
public interface BufferedSink extends Consumer<String> {

    /** Buffers one complete JSON text (without the line end); sent by the next flush or accept. */
    void write(String message);

    /** Sends everything buffered. */
    void flush();

    @Override
    default void accept(String message) {
        write(message);
        flush();
    }
}
