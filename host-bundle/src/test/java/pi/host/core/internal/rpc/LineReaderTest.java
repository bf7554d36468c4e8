package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    private final List<String> events = new ArrayList<>();

    private final LineReader.Handler handler = new LineReader.Handler() {
        @Override
        public void line(byte[] buffer, int offset, int length) {
            events.add("line:" + new String(buffer, offset, length, StandardCharsets.UTF_8));
        }

        @Override
        public void oversized(long length) {
            events.add("oversized:" + length);
        }
    };

    private void read(String input, int max) throws IOException {
        new LineReader(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), max).run(handler);
    }

    @Test
    void splitsOnNewlinesAndStripsCarriageReturns() throws IOException {
        read("a\r\nbb\n\nccc", 10);
        assertThat(events).containsExactly("line:a", "line:bb", "line:", "line:ccc");
    }

    @Test
    void skipsAnOversizedLineAndKeepsReading() throws IOException {
        read("12345678901\nok\n", 10);
        assertThat(events).containsExactly("oversized:11", "line:ok");
    }

    @Test
    void oversizedLastLineWithoutNewlineIsReported() throws IOException {
        read("ok\n" + "x".repeat(50), 10);
        assertThat(events).containsExactly("line:ok", "oversized:50");
    }

    @Test
    void joinsLinesThatSpanManyReads() throws IOException {
        String longLine = "y".repeat(200_000);
        new LineReader(new TrickleStream((longLine + "\nz\n").getBytes(StandardCharsets.UTF_8), 7), 300_000)
                .run(handler);
        assertThat(events).containsExactly("line:" + longLine, "line:z");
    }

    @Test
    void neverBuffersMoreThanTheBoundForAHugeLine() throws IOException {
        // 64 MiB of input without a newline against a 1 KiB bound: the stream is consumed, not held
        long size = 64L * 1024 * 1024;
        InputStream huge = new InputStream() {
            long left = size;

            @Override
            public int read() {
                return left-- > 0 ? 'q' : (left == -1 ? '\n' : -1);
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left < 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                if (n == 0) {
                    b[off] = '\n';
                    left = -1;
                    return 1;
                }
                java.util.Arrays.fill(b, off, off + n, (byte) 'q');
                left -= n;
                return n;
            }
        };
        new LineReader(huge, 1024).run(handler);
        assertThat(events).containsExactly("oversized:" + size);
    }

    /** Hands out at most {@code step} bytes a read, like a slow pipe. */
    private static final class TrickleStream extends InputStream {
        private final byte[] data;
        private final int step;
        private int pos;

        TrickleStream(byte[] data, int step) {
            this.data = data;
            this.step = step;
        }

        @Override
        public int read() {
            return pos < data.length ? data[pos++] : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= data.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, step), data.length - pos);
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }
    }
}
