package pi.host.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorTextTest {

    @Test
    void shortTextsAndListsStayAsTheyAre() {
        assertThat(ErrorText.bound("no session s_1")).isEqualTo("no session s_1");
        assertThat(ErrorText.quote("abc")).isEqualTo("'abc'");
        assertThat(ErrorText.first(List.of("a", "b"))).containsExactly("a", "b");
    }

    @Test
    void aLongTextIsCutToTheBoundAndSaysHowLongItWas() {
        String cut = ErrorText.cut("x".repeat(100), 40);
        assertThat(cut).hasSize(40).isEqualTo("x".repeat(17) + "… [100 characters, cut]");
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String text = "a".repeat(16) + "😀" + "b".repeat(100);
        String cut = ErrorText.cut(text, 40);
        assertThat(cut).isEqualTo("a".repeat(16) + "… [118 characters, cut]");
        String quoted = ErrorText.quote("a".repeat(ErrorText.MAX_ECHO_CHARS - 1) + "😀" + "b");
        assertThat(quoted).isEqualTo("'" + "a".repeat(ErrorText.MAX_ECHO_CHARS - 1) + "…' (82 characters)");
    }

    @Test
    void aLongListKeepsTheFirstProblemsEachCutAndCountsTheRest() {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            problems.add("p" + i + " " + "z".repeat(i == 0 ? 1000 : 1));
        }
        List<String> first = ErrorText.first(problems);
        assertThat(first).hasSize(ErrorText.MAX_PROBLEMS + 1);
        assertThat(first.get(0)).hasSize(ErrorText.MAX_PROBLEM_CHARS).startsWith("p0 zzz");
        assertThat(first.get(9)).isEqualTo("p9 z");
        assertThat(first.get(10)).isEqualTo("and 15 more problems");
    }
}
