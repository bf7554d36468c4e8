package pi.host.console.internal.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

/** Pins: text from files and commands must never move the cursor, clear, recolour or reorder the screen. */
class TextTest {

    @Test
    void controlCharactersBecomeVisible() {
        assertThat(Text.sanitize("a\u001b[2Jb\u0007c\u0008d\u007fe")).isEqualTo("a^[[2Jb^Gc^Hd^?e");
        assertThat(Text.sanitize("x\u009b31my")).isEqualTo("x<U+009B>31my");
        assertThat(Text.sanitize("abc\u202edef\u2066")).isEqualTo("abc<U+202E>def<U+2066>");
        assertThat(Text.sanitize("line\r")).isEqualTo("line");
        assertThat(Text.sanitize("plain text")).isSameAs("plain text".intern());
    }

    @Test
    void tabsExpandToStopsCountedInTheText() {
        assertThat(Text.sanitize("\tx")).isEqualTo("    x");
        assertThat(Text.sanitize("ab\tx")).isEqualTo("ab  x");
        assertThat(Text.sanitize("abcd\tx")).isEqualTo("abcd    x");
    }

    @Test
    void wrappedRowsFitTheWidthAndContinueBesideTheGutter() {
        Row row = new Row(new AttributedString("12 | " + "x".repeat(20)), 5);
        List<AttributedString> rows = Text.wrap(row, 10);
        assertThat(rows).extracting(AttributedString::toString)
                .containsExactly("12 | xxxxx", "     xxxxx", "     xxxxx", "     xxxxx");
        assertThat(rows).allSatisfy(r -> assertThat(r.columnLength()).isLessThanOrEqualTo(10));
    }

    @Test
    void wideCharactersAreCountedByColumnsAndNeverSplit() {
        List<AttributedString> rows = Text.wrap(new Row(new AttributedString("ab漢字かな"), 0), 5);
        assertThat(rows).allSatisfy(r -> assertThat(r.columnLength()).isLessThanOrEqualTo(5));
        assertThat(String.join("", rows.stream().map(AttributedString::toString).toList())).isEqualTo("ab漢字かな");
    }

    @Test
    void aHangTooWideForTheScreenIsDroppedAndNoWidthMeansNoWrap() {
        Row row = new Row(new AttributedString("x".repeat(30)), 20);
        assertThat(Text.wrap(row, 10)).extracting(AttributedString::toString)
                .containsExactly("xxxxxxxxxx", "xxxxxxxxxx", "xxxxxxxxxx");
        assertThat(Text.wrap(row, 0)).hasSize(1);
    }
}
