package pi.host.console.internal.screen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.console.internal.render.Row;
import pi.host.console.internal.render.Styles;

class ScreensTest {

    @Test
    void completionSplitsAtWhitespaceOutsideQuotesAndJson() {
        String line = "Bash command=\"ls -la\" todos=[{\"a\": 1}] pa";
        LineWords.Words w = LineWords.split(line, line.length());
        assertThat(w.words()).containsExactly("Bash", "command=\"ls -la\"", "todos=[{\"a\": 1}]", "pa");
        assertThat(w.wordIndex()).isEqualTo(3);
        assertThat(w.word()).isEqualTo("pa");
        LineWords.Words gap = LineWords.split("Read  ", 5);
        assertThat(gap.words()).containsExactly("Read", "");
        assertThat(gap.wordIndex()).isEqualTo(1);
        assertThat(LineWords.split("Re", 2).wordIndex()).isZero();
    }

    @Test
    void acceptingALineNeverFailsWhateverItsQuotes() {
        var parsed = new LineWords().parse("Bash command=\"unclosed", 10, org.jline.reader.Parser.ParseContext.ACCEPT_LINE);
        assertThat(parsed.words()).containsExactly("Bash command=\"unclosed");
    }

    @Test
    void pipedModeEchoesEachLinePrintsPlainTextAndTakesTheNextLineAsTheAnswer() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PipedScreen s = new PipedScreen(new ByteArrayInputStream("Read path=a\nO\n\nx\n".getBytes(StandardCharsets.UTF_8)), out);
        assertThat(s.readLine("p> ")).isEqualTo("Read path=a");
        Row question = Row.of("keys?", Styles.KEY);
        assertThat(s.readKey(question, "osd", () -> true)).isEqualTo('o');
        assertThat(s.readKey(question, "osd", () -> true)).isEqualTo(Screen.ENTER);
        assertThat(s.readKey(question, "osd", () -> true)).as("whatever it is: the card decides").isEqualTo('x');
        assertThat(s.readKey(question, "osd", () -> true)).isEqualTo(Screen.END);
        s.print(List.of(Row.of("done", Styles.ERROR)));
        s.close();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("> Read path=a\nkeys?\n> O\nkeys?\n> \nkeys?\n> x\nkeys?\ndone\n");
        assertThat(s.width()).isZero();
        assertThat(s.interactive()).isFalse();
    }
}
