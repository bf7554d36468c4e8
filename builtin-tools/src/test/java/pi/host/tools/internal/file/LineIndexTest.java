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
        LineIndex idx = LineIndex.of(b, b.length);
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
        assertThat(LineIndex.of(b, b.length).count()).isEqualTo(4);
    }

    @Test
    void aLineOutsideTheFileIsRefused() {
        byte[] b = "one\n".getBytes(StandardCharsets.UTF_8);
        LineIndex idx = LineIndex.of(b, b.length);
        assertThat(idx.count()).isEqualTo(1);
        assertThatThrownBy(() -> idx.line(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> idx.line(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
