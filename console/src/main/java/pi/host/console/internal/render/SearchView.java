package pi.host.console.internal.render;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jline.utils.AttributedStringBuilder;

/**
 * Grep and Glob results. Grep's content mode is grouped by file already (one {@code [path#TAG]}
 * header per file, then {@code N:line} matches and {@code N-line} context, {@code --} between
 * groups); the view puts a blank line between files, numbers in a gutter and the matched text
 * highlighted. Files and count mode, and Glob, are lists of paths.
 */
final class SearchView {

    private static final Pattern MATCH = Pattern.compile("(\\d+)([:-])(.*)", Pattern.DOTALL);
    private static final Pattern COUNT = Pattern.compile("(.*):(\\d+)");

    private SearchView() {
    }

    /**
     * @param pattern the Grep pattern, used only to highlight (Java's regex flavour; a pattern it
     *        cannot read is simply not highlighted)
     */
    static List<Row> grep(String text, String mode, String pattern, boolean caseInsensitive) {
        if ("files".equals(mode)) {
            return paths(text);
        }
        if ("count".equals(mode)) {
            List<Row> rows = new ArrayList<>();
            for (String line : Lines.split(text)) {
                Matcher m = COUNT.matcher(line);
                rows.add(m.matches() ? new Row(new AttributedStringBuilder().append(Text.sanitize(m.group(1)), Styles.BOLD)
                        .append("  " + m.group(2) + " matching line" + ("1".equals(m.group(2)) ? "" : "s"), Styles.DIM)
                        .toAttributedString(), 2) : other(line));
            }
            return rows;
        }
        Pattern highlight = highlighter(pattern, caseInsensitive);
        List<String> lines = Lines.split(text);
        int gutter = Lines.gutter(lines, MATCH);
        List<Row> rows = new ArrayList<>();
        for (String line : lines) {
            Matcher header = Lines.HEADER.matcher(line);
            Matcher m = MATCH.matcher(line);
            if (header.matches()) {
                if (!rows.isEmpty()) {
                    rows.add(Row.of(""));
                }
                rows.add(Lines.header(header));
            } else if (m.matches()) {
                boolean match = m.group(2).equals(":");
                rows.add(match ? matchLine(m.group(1), gutter, m.group(3), highlight)
                        : Lines.numbered(m.group(1), gutter, m.group(3), Styles.DIM, Styles.DIM));
            } else if (line.equals("--")) {
                rows.add(Row.of(" ".repeat(gutter) + " ...", Styles.DIM));
            } else {
                rows.add(other(line));
            }
        }
        return rows;
    }

    /** A list of paths (Glob, Grep files mode). */
    static List<Row> paths(String text) {
        List<Row> rows = new ArrayList<>();
        for (String line : Lines.split(text)) {
            rows.add(other(line));
        }
        return rows;
    }

    private static Row other(String line) {
        return Lines.NOTE.matcher(line).matches() ? Lines.note(line) : Row.of(line);
    }

    private static Row matchLine(String number, int gutter, String text, Pattern highlight) {
        String shown = Text.sanitize(text);
        AttributedStringBuilder b = new AttributedStringBuilder()
                .append(" ".repeat(Math.max(0, gutter - number.length()))).append(number, Styles.OK)
                .append(" | ", Styles.DIM);
        int at = 0;
        if (highlight != null) {
            Matcher m = highlight.matcher(shown);
            while (m.find()) {
                if (m.end() == m.start()) {
                    continue;
                }
                b.append(shown.substring(at, m.start())).append(shown.substring(m.start(), m.end()), Styles.MATCH);
                at = m.end();
            }
        }
        b.append(shown.substring(at));
        return new Row(b.toAttributedString(), gutter + 3);
    }

    private static Pattern highlighter(String pattern, boolean caseInsensitive) {
        if (pattern == null || pattern.isEmpty()) {
            return null;
        }
        try {
            return Pattern.compile(pattern, caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        } catch (PatternSyntaxException e) {
            return null;
        }
    }
}
