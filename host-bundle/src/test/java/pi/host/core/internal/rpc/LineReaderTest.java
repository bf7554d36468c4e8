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
        public boolean line(byte[] buffer, int offset, int length) {
            events.add("line:" + new String(buffer, offset, length, StandardCharsets.UTF_8));
            return true;
        }

        @Override
        public void oversized(long length) {
            events.add("oversized:" + length);
        }
    };

    /** Records like {@link #handler}, then says it gave the reading to another thread. */
    private final LineReader.Handler givesAway = new LineReader.Handler() {
        @Override
        public boolean line(byte[] buffer, int offset, int length) {
            handler.line(buffer, offset, length);
            return false;
        }

        @Override
        public void oversized(long length) {
            handler.oversized(length);
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

    @Test
    void aHandlerThatGivesTheReadingAwayLeavesTheNextRunToGoOnFromTheNextLine() throws IOException {
        String longLine = "w".repeat(20_000); // spans reads and the reader's first line buffer
        byte[] input = ("a\n" + longLine + "\r\n\n" + "x".repeat(40) + "\nb\nlast").getBytes(StandardCharsets.UTF_8);
        LineReader reader = new LineReader(new TrickleStream(input, 7), 30);
        int runs = 1;
        while (!reader.run(givesAway)) {
            runs++;
        }
        assertThat(events).containsExactly("line:a", "oversized:20001", "line:", "oversized:40", "line:b", "line:last");
        assertThat(runs).as("one run per line given away, and one that finds the end").isEqualTo(5);
        assertThat(reader.run(givesAway)).as("the end stays the end").isTrue();
        assertThat(events).hasSize(6);
    }

    @Test
    void longLinesJoinedAcrossReadsSurviveAHandOverAfterEachLine() throws IOException {
        String one = "1".repeat(9_000);
        String two = "2".repeat(70_000);
        LineReader reader = new LineReader(new TrickleStream((one + "\n" + two + "\nz").getBytes(StandardCharsets.UTF_8),
                4_000), 100_000);
        while (!reader.run(givesAway)) {
            // the next "thread" goes on where the last one left
        }
        assertThat(events).containsExactly("line:" + one, "line:" + two, "line:z");
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
