package pi.host.tools.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OutputBufferTest {

    @Test
    void keepsEverythingWhileItFits() {
        OutputBuffer b = new OutputBuffer(4, 4);
        b.append("abcdef");
        assertThat(b.text()).isEqualTo("abcdef");
        assertThat(b.cut()).isZero();
    }

    @Test
    void keepsHeadAndTailAndSaysHowMuchWasCut() {
        OutputBuffer b = new OutputBuffer(3, 3);
        for (char c = 'a'; c <= 'z'; c++) {
            b.append(String.valueOf(c));
        }
        assertThat(b.cut()).isEqualTo(20);
        assertThat(b.text()).isEqualTo("abc\n[... 20 characters cut ...]\nxyz");
    }

    @Test
    void aTailOnlyBufferKeepsTheLastCharacters() {
        OutputBuffer b = new OutputBuffer(0, 5);
        b.append("0123456789");
        b.append("ab");
        assertThat(b.text()).endsWith("789ab").contains("7 characters cut");
    }

    @Test
    void headAndTailMatchTheWholeStreamForRandomChunks() {
        java.util.Random random = new java.util.Random(5);
        for (int run = 0; run < 200; run++) {
            int head = random.nextInt(20);
            int tail = 1 + random.nextInt(20);
            OutputBuffer b = new OutputBuffer(head, tail);
            StringBuilder all = new StringBuilder();
            for (int c = random.nextInt(12); c > 0; c--) {
                StringBuilder chunk = new StringBuilder();
                for (int k = random.nextInt(30); k > 0; k--) {
                    chunk.append((char) ('a' + random.nextInt(26)));
                }
                b.append(chunk);
                all.append(chunk);
            }
            String whole = all.toString();
            String expected = whole.length() <= head + tail ? whole
                    : whole.substring(0, head) + "\n[... " + (whole.length() - head - tail) + " characters cut ...]\n"
                            + whole.substring(whole.length() - tail);
            assertThat(b.text()).as("run " + run).isEqualTo(expected);
        }
    }

    /** Pins: a multi-byte character split between two reads must not turn into two replacement characters. */
    @Test
    void aCharacterSplitAcrossReadsStaysWhole() throws Exception {
        byte[] bytes = "é€😀 done".getBytes(StandardCharsets.UTF_8);
        InputStream oneByteAtATime = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(1, len));
            }
        };
        OutputBuffer out = new OutputBuffer(100, 100);
        StreamPump pump = new StreamPump(oneByteAtATime, out, null);
        pump.run();
        assertThat(out.text()).isEqualTo("é€😀 done");
    }

    @Test
    void invalidUtf8IsReplaced() {
        OutputBuffer out = new OutputBuffer(100, 100);
        new StreamPump(new ByteArrayInputStream(new byte[] {'a', (byte) 0xff, (byte) 0xc3, 'b'}), out, null).run();
        assertThat(out.text()).isEqualTo("a\uFFFD\uFFFDb");
    }
}
