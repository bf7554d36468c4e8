package pi.host.core.internal.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into {@code \n}-terminated lines without ever holding more than the line
 * bound in memory: a longer line is skipped as it streams past and reported by its length.
 *
 * <p>Reading can pass from thread to thread (leader/follower, {@link LineTransport}): the reader's
 * position is advanced before a line is handed out, so when the handler gives the reading to another
 * thread and returns {@code false}, this thread leaves {@link #run} without touching the reader
 * again and the other thread goes on with the next line. One thread at a time may be in {@link #run};
 * the hand-over must be a happens-before edge (an executor's {@code execute} is one).
 */
public final class LineReader {

    /** Receives what the reader finds. */
    public interface Handler {
        /**
         * One complete line, without its line end; the bytes are only valid until this returns or
         * until it gives the reading to another thread, whichever comes first.
         *
         * @return true to keep reading on this thread; false when this thread has given the reading
         *         to another one, which then calls {@link LineReader#run} itself
         */
        boolean line(byte[] buffer, int offset, int length);

        /** A line longer than the bound was skipped. */
        void oversized(long length);
    }

    private static final int CHUNK = 64 * 1024;

    private final InputStream in;
    private final int maxLine;
    // the reading position, kept in fields so that another thread can go on from it
    private final byte[] chunk = new byte[CHUNK];
    private int chunkEnd;
    private int next;
    /** The start of a line that spans reads, copied out of {@link #chunk}. */
    private byte[] line;
    private int lineLength;
    /** >= 0 while skipping an oversized line: bytes seen so far. */
    private long skipped = -1;
    private boolean ended;

    public LineReader(InputStream in, int maxLine) {
        if (maxLine < 1) {
            throw new IllegalArgumentException("maxLine must be positive");
        }
        this.in = in;
        this.maxLine = maxLine;
        this.line = new byte[Math.min(maxLine, 8 * 1024)];
    }

    /**
     * Reads, handing each line to {@code handler}, until end of stream or until the handler gives
     * the reading to another thread.
     *
     * @return true at end of stream (seen by this thread), false when the handler gave the reading away
     */
    public boolean run(Handler handler) throws IOException {
        while (!ended) {
            if (next == chunkEnd) {
                int n = in.read(chunk);
                if (n == -1) {
                    ended = true;
                    return finish(handler);
                }
                chunkEnd = n;
                next = 0;
            }
            int start = next;
            int end = start;
            while (end < chunkEnd && chunk[end] != '\n') {
                end++;
            }
            if (end == chunkEnd) {
                next = chunkEnd;
                keepPartial(start, end - start);
                continue;
            }
            next = end + 1; // past the line before anyone sees it: the next reader starts there
            if (!complete(handler, start, end - start)) {
                return false;
            }
        }
        return true;
    }

    /** The line ending at a newline found in {@link #chunk} at {@code start + segment}. */
    private boolean complete(Handler handler, int start, int segment) {
        if (skipped >= 0) {
            long length = skipped + segment;
            skipped = -1;
            handler.oversized(length);
            return true;
        }
        if (lineLength == 0) {
            // the common case: the whole line is inside this chunk, no copy
            return deliver(handler, chunk, start, segment);
        }
        long length = (long) lineLength + segment;
        if (length > maxLine) {
            lineLength = 0;
            handler.oversized(length);
            return true;
        }
        line = append(line, lineLength, chunk, start, segment);
        lineLength = 0;
        return deliver(handler, line, 0, (int) length);
    }

    /** The rest of a read without a newline: the start of a line, or more of one being skipped. */
    private void keepPartial(int start, int rest) {
        if (rest == 0) {
            return;
        }
        if (skipped >= 0) {
            skipped += rest;
        } else if ((long) lineLength + rest > maxLine) {
            skipped = (long) lineLength + rest;
            lineLength = 0;
        } else {
            line = append(line, lineLength, chunk, start, rest);
            lineLength += rest;
        }
    }

    /** End of stream: a last line without a newline is still a line. */
    private boolean finish(Handler handler) {
        if (skipped >= 0) {
            long length = skipped;
            skipped = -1;
            handler.oversized(length);
            return true;
        }
        if (lineLength == 0) {
            return true;
        }
        int length = lineLength;
        lineLength = 0;
        // a handler that gives the reading away here leaves the end of stream to the next reader
        return deliver(handler, line, 0, length);
    }

    private boolean deliver(Handler handler, byte[] buffer, int offset, int length) {
        if (length > maxLine) {
            handler.oversized(length);
            return true;
        }
        if (length > 0 && buffer[offset + length - 1] == '\r') {
            length--;
        }
        return handler.line(buffer, offset, length);
    }

    private static byte[] append(byte[] line, int used, byte[] src, int from, int count) {
        if (used + count > line.length) {
            line = Arrays.copyOf(line, Math.max(used + count, line.length * 2));
        }
        System.arraycopy(src, from, line, used, count);
        return line;
    }
}
