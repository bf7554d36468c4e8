package pi.host.console.internal.render;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/** Pieces the views share: the {@code [path#TAG]} header, numbered lines, notes in brackets. */
final class Lines {

    /** A file header as Read, Write, Edit and Grep print it (EDIT-CONTRACT.md). */
    static final Pattern HEADER = Pattern.compile("\\[(.+)#([0-9A-F]{4})]");
    /** The host's bracketed remarks: more lines follow, truncated, line cut. */
    static final Pattern NOTE = Pattern.compile("\\[[a-z][^\\]]*]|\\([a-z][^)]*\\)");

    private Lines() {
    }

    /** The text's lines without the final empty one a trailing newline leaves. */
    static List<String> split(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** The widest number that {@code numbered} captures as its group 1 in any of the lines (at least 1). */
    static int gutter(List<String> lines, Pattern numbered) {
        int gutter = 1;
        for (String line : lines) {
            Matcher m = numbered.matcher(line);
            if (m.matches()) {
                gutter = Math.max(gutter, m.group(1).length());
            }
        }
        return gutter;
    }

    /** {@code [path#TAG]} with the path bold and the tag coloured; the brackets stay so the tag can be copied as shown. */
    static Row header(Matcher m) {
        return new Row(new AttributedStringBuilder()
                .append("[").append(Text.sanitize(m.group(1)), Styles.BOLD).append("#")
                .append(m.group(2), Styles.TAG).append("]").toAttributedString(), 0);
    }

    /** A numbered line: the number right-aligned in {@code gutter} columns, a bar, the text. */
    static Row numbered(String number, int gutter, String text, AttributedStyle numberStyle, AttributedStyle textStyle) {
        String pad = " ".repeat(Math.max(0, gutter - number.length()));
        return new Row(new AttributedStringBuilder()
                .append(pad).append(number, numberStyle).append(" | ", Styles.DIM)
                .append(Text.sanitize(text), textStyle).toAttributedString(), gutter + 3);
    }

    static Row note(String text) {
        return Row.of(text, Styles.DIM);
    }
}
