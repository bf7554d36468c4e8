package pi.host.tools.internal.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Drains one process stream on its own thread: bytes are decoded as UTF-8 across reads (a character
 * split between two reads stays whole; invalid bytes become U+FFFD), kept in an {@link OutputBuffer}
 * and handed to a listener chunk by chunk.
 */
public final class StreamPump implements Runnable {

    private static final int READ = 64 * 1024;

    private final InputStream in;
    private final OutputBuffer buffer;
    private final Consumer<String> listener;
    private final long listenLimit;
    private final CountDownLatch done = new CountDownLatch(1);
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

    /** Starts the pump on a daemon thread. */
    public StreamPump start(String name) {
        Thread t = new Thread(this, name);
        t.setDaemon(true);
        t.start();
        return this;
    }

    @Override
    public void run() {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        ByteBuffer bytes = ByteBuffer.allocate(READ);
        CharBuffer chars = CharBuffer.allocate(READ);
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
            done.countDown();
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
        return done.await(millis, TimeUnit.MILLISECONDS);
    }

    public boolean finished() {
        return done.getCount() == 0;
    }
}
