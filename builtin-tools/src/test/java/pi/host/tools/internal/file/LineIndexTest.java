package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineIndexTest {

    private static List<String> all(byte[] b) {
        LineIndex idx = LineIndex.ofText(b, b.length);
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= idx.count(); i++) {
            out.add(idx.line(i));
        }
        return out;
    }

    /** Pins that decoding one line's bytes gives Grep the same text as decoding the whole file did. */
    @Test
    void everyLineIsTheTextTheWholeFileDecodingGives() {
        // bytes drawn mostly from newlines, CRs, a BOM's and multi-byte sequences' bytes, and broken ones
        byte[] alphabet = {'\n', '\r', 'a', ' ', (byte) 0xEF, (byte) 0xBB, (byte) 0xBF, (byte) 0xC3, (byte) 0xA9,
                (byte) 0xE2, (byte) 0x82, (byte) 0xAC, (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80, (byte) 0xFF};
        Random random = new Random(19);
        for (int round = 0; round < 20_000; round++) {
            byte[] b = new byte[random.nextInt(24)];
            for (int i = 0; i < b.length; i++) {
                b[i] = alphabet[random.nextInt(alphabet.length)];
            }
            if (random.nextInt(4) == 0 && b.length >= 3) {
                b[0] = (byte) 0xEF;
                b[1] = (byte) 0xBB;
                b[2] = (byte) 0xBF;
            }
            assertThat(all(b)).as("bytes %s", java.util.HexFormat.of().formatHex(b))
                    .isEqualTo(Searcher.lines(b, b.length));
        }
    }

    @Test
    void crlfLinesLoseTheirCrButAnUnterminatedLastLineKeepsIt() {
        byte[] b = "\uFEFFa\r\nb\n\nc\r".getBytes(StandardCharsets.UTF_8);
        assertThat(all(b)).containsExactly("a", "b", "", "c\r");
        assertThat(LineIndex.ofText(b, b.length).count()).isEqualTo(4);
    }

    @Test
    void aLineOutsideTheFileIsRefused() {
        byte[] b = "one\n".getBytes(StandardCharsets.UTF_8);
        LineIndex idx = LineIndex.ofText(b, b.length);
        assertThat(idx.count()).isEqualTo(1);
        assertThatThrownBy(() -> idx.line(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> idx.line(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** Pins the one-pass sniff: binary exactly where the Searcher's test says so, the head's last byte included. */
    @Test
    void aNulInTheSniffedHeadMakesTheBytesBinaryAsTheSearcherJudgesThem() {
        for (int at : new int[] {0, 1, 2, 3, 100, GrepTool.SNIFF_BYTES - 1, GrepTool.SNIFF_BYTES, GrepTool.SNIFF_BYTES + 5}) {
            for (boolean bom : new boolean[] {false, true}) {
                byte[] b = new byte[GrepTool.SNIFF_BYTES + 10];
                java.util.Arrays.fill(b, (byte) 'a');
                b[40] = '\n';
                if (bom && at > 2) {
                    b[0] = (byte) 0xEF;
                    b[1] = (byte) 0xBB;
                    b[2] = (byte) 0xBF;
                }
                b[at] = 0;
                boolean binary = Searcher.binary(b, b.length);
                assertThat(binary).as("the Searcher's test at %d", at).isEqualTo(at < GrepTool.SNIFF_BYTES);
                LineIndex idx = LineIndex.ofText(b, b.length);
                assertThat(idx == null).as("NUL at %d, BOM %s", at, bom).isEqualTo(binary);
                if (idx != null) {
                    assertThat(idx.count()).isEqualTo(2);
                }
            }
        }
        byte[] shortFile = {'a', '\n', 0};
        assertThat(LineIndex.ofText(shortFile, shortFile.length)).as("a file shorter than the head").isNull();
        assertThat(LineIndex.ofText(shortFile, 2)).as("only the first len bytes count").isNotNull();
    }
}
