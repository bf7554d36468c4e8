package pi.host.tools.internal.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Drains one process stream on a pooled thread: bytes are decoded as UTF-8 across reads (a
 * character split between two reads stays whole; invalid bytes become U+FFFD), kept in an
 * {@link OutputBuffer} and handed to a listener chunk by chunk.
 */
public final class StreamPump implements Runnable {

    /** One pipe's capacity on Linux: a read never returns more. */
    private static final int READ = 64 * 1024;
    /**
     * Each thread's read buffers, kept across runs: pool threads serve one command after another,
     * and 256 KB of fresh arrays per command is garbage a short command need not make. Safe to
     * share between runs because everything handed on (listener chunks, buffer appends) is copied.
     */
    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private final InputStream in;
    private final OutputBuffer buffer;
    private final Consumer<String> listener;
    private final long listenLimit;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private long listened;

    public StreamPump(InputStream in, OutputBuffer buffer, Consumer<String> listener) {
        this(in, buffer, listener, Long.MAX_VALUE);
    }

    /**
     * @param listenLimit characters handed to the listener at most; past it chunks are only kept in
     *                    the buffer, so a flood allocates nothing per read
     */
    public StreamPump(InputStream in, OutputBuffer buffer, Consumer<String> listener, long listenLimit) {
        this.in = in;
        this.buffer = buffer;
        this.listener = listener;
        this.listenLimit = listenLimit;
    }

    /** Starts the pump on one of {@code threads}, named {@code name} while it runs. */
    public StreamPump start(CommandThreads threads, String name) {
        threads.execute(name, this);
        return this;
    }

    @Override
    public void run() {
        Buffers b = BUFFERS.get();
        CharsetDecoder decoder = b.decoder.reset();
        ByteBuffer bytes = b.bytes.clear();
        CharBuffer chars = b.chars.clear();
        try {
            int n;
            while ((n = in.read(bytes.array(), bytes.position(), bytes.remaining())) >= 0) {
                bytes.position(bytes.position() + n);
                bytes.flip();
                decoder.decode(bytes, chars, false); // an incomplete sequence stays in bytes for the next read
                bytes.compact();
                emit(chars);
            }
            bytes.flip();
            decoder.decode(bytes, chars, true);
            decoder.flush(chars);
            emit(chars);
        } catch (IOException e) {
            // the stream was closed under us (kill, stop): what was read is kept
        } finally {
            try {
                in.close();
            } catch (IOException e) {
                // nothing to do
            }
            done.complete(null);
        }
    }

    private void emit(CharBuffer chars) {
        chars.flip();
        if (chars.hasRemaining()) {
            if (listener != null && listened < listenLimit) {
                String chunk = chars.toString();
                listened += chunk.length();
                listener.accept(chunk);
            }
            buffer.append(chars);
        }
        chars.clear();
    }

    /** Waits until the stream ended, at most {@code millis}; true when it did. */
    public boolean await(long millis) throws InterruptedException {
        try {
            done.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e); // never: done only completes normally
        }
    }

    /** Completes when the stream ended (read to its end, or closed under the pump). */
    public CompletableFuture<Void> done() {
        return done;
    }

    /** One thread's reusable read state. */
    private static final class Buffers {
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        final ByteBuffer bytes = ByteBuffer.allocate(READ);
        final CharBuffer chars = CharBuffer.allocate(READ);
    }
}
