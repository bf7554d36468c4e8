package pi.host.core.internal.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into {@code \n}-terminated lines without ever holding more than the line
 * bound in memory: a longer line is skipped as it streams past and reported by its length.
 */
public final class LineReader {

    /** Receives what the reader finds. */
    public interface Handler {
        /** One complete line, without its line end; the bytes are only valid during the call. */
        void line(byte[] buffer, int offset, int length);

        /** A line longer than the bound was skipped. */
        void oversized(long length);
    }

    private static final int CHUNK = 64 * 1024;

    private final InputStream in;
    private final int maxLine;

    public LineReader(InputStream in, int maxLine) {
        if (maxLine < 1) {
            throw new IllegalArgumentException("maxLine must be positive");
        }
        this.in = in;
        this.maxLine = maxLine;
    }

    /** Reads to end of stream, handing each line to {@code handler}. */
    public void run(Handler handler) throws IOException {
        byte[] chunk = new byte[CHUNK];
        byte[] line = new byte[Math.min(maxLine, 8 * 1024)];
        int lineLength = 0;
        long skipped = -1; // >= 0 while skipping an oversized line: bytes seen so far
        int n;
        while ((n = in.read(chunk)) != -1) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (chunk[i] != '\n') {
                    continue;
                }
                int segment = i - start;
                if (skipped >= 0) {
                    handler.oversized(skipped + segment);
                    skipped = -1;
                } else if (lineLength == 0) {
                    // the common case: the whole line is inside this chunk, no copy
                    deliver(handler, chunk, start, segment);
                } else if ((long) lineLength + segment > maxLine) {
                    handler.oversized((long) lineLength + segment);
                    lineLength = 0;
                } else {
                    line = append(line, lineLength, chunk, start, segment);
                    lineLength += segment;
                    deliver(handler, line, 0, lineLength);
                    lineLength = 0;
                }
                start = i + 1;
            }
            int rest = n - start;
            if (rest == 0) {
                continue;
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
        if (skipped >= 0) {
            handler.oversized(skipped);
        } else if (lineLength > 0) {
            deliver(handler, line, 0, lineLength);
        }
    }

    private void deliver(Handler handler, byte[] buffer, int offset, int length) {
        if (length > maxLine) {
            handler.oversized(length);
            return;
        }
        if (length > 0 && buffer[offset + length - 1] == '\r') {
            length--;
        }
        handler.line(buffer, offset, length);
    }

    private static byte[] append(byte[] line, int used, byte[] src, int from, int count) {
        if (used + count > line.length) {
            line = Arrays.copyOf(line, Math.max(used + count, line.length * 2));
        }
        System.arraycopy(src, from, line, used, count);
        return line;
    }
}
