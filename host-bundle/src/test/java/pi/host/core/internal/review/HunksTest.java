package pi.host.core.internal.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HunksTest {

    @Test
    void lineCountIsTheNumberOfLinesTheSplitGives() {
        for (String s : List.of("", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "\n\n", "a\r", "\r\n\r\nx", "é\nü")) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            assertThat(Hunks.lineCount(b)).as("%s", s).isEqualTo(Hunks.lines(b).size());
        }
    }

    @Test
    void sidesPastTheDiffBoundGetLineCountsAndNoHunks() {
        String before = "line\r\n".repeat(Hunks.MAX_DIFF_BYTES / 6 + 10) + "last without newline";
        String after = "x\n".repeat(12);
        Map<String, Object> diff = Hunks.of(before.getBytes(StandardCharsets.UTF_8),
                after.getBytes(StandardCharsets.UTF_8));
        assertThat(diff).containsEntry("additions", 12).containsEntry("deletions", Hunks.MAX_DIFF_BYTES / 6 + 11)
                .containsEntry("hunks", List.of()).containsEntry("truncated", true);
    }
}
