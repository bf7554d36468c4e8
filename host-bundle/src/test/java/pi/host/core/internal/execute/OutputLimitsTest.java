package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutputLimitsTest {

    @Test
    void smallResultsPassUntouched() {
        boolean[] cut = {false};
        assertThat(OutputLimits.bound(List.of("a", "b"), 10, cut)).containsExactly("a", "b");
        assertThat(cut[0]).isFalse();
    }

    @Test
    void largeResultsKeepHeadAndTailAndSayHowMuchWasCut() {
        boolean[] cut = {false};
        List<String> out = OutputLimits.bound(List.of("H".repeat(50) + "M".repeat(1000) + "T".repeat(50)), 100, cut);
        assertThat(cut[0]).isTrue();
        assertThat(out).hasSize(1);
        assertThat(out.get(0)).startsWith("H".repeat(50)).endsWith("T".repeat(50))
                .contains("[... 1000 characters truncated ...]");
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String s = "ab\uD83D\uDE00cd";
        assertThat(OutputLimits.safeCut(s, 3)).isEqualTo(2);
        assertThat(OutputLimits.safeCut(s, 4)).isEqualTo(4);
    }
}
