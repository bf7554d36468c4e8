package pi.host.mcp.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The stderr tail mcp.list shows is bounded in lines and in line length, and shows no control characters. */
class StderrTailTest {

    @Test
    void onlyTheLastLinesAreKeptEachCutToTheBound() {
        StderrTail tail = new StderrTail();
        for (int i = 0; i < StderrTail.MAX_LINES + 10; i++) {
            tail.add("line " + i);
        }
        String[] kept = tail.text().split("\n");
        assertThat(kept).hasSize(StderrTail.MAX_LINES);
        assertThat(kept[0]).isEqualTo("line 10");
        assertThat(tail.last()).isEqualTo("line " + (StderrTail.MAX_LINES + 9));

        tail.add("x".repeat(100_000));
        assertThat(tail.last()).hasSize(StderrTail.MAX_LINE + 3).endsWith("...");
    }

    @Test
    void controlCharactersAreShownAsQuestionMarks() {
        StderrTail tail = new StderrTail();
        tail.add("red \u001b[31mtext\u0007\tend");
        assertThat(tail.last()).isEqualTo("red ?[31mtext?\tend");
        assertThat(new StderrTail().text()).isEmpty();
        assertThat(new StderrTail().last()).isNull();
    }
}
