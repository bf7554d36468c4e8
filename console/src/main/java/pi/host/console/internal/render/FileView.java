package pi.host.console.internal.render;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of Read, Write and Edit results as a person reads a file: the {@code [path#TAG]} header,
 * then each line with its number in a gutter (the host prints {@code N<TAB>line}), then the host's
 * notes ({@code [more lines follow; ...]}).
 */
final class FileView {

    private static final Pattern NUMBERED = Pattern.compile("(\\d+)\t(.*)", Pattern.DOTALL);

    private FileView() {
    }

    static List<Row> render(String text) {
        List<String> lines = Lines.split(text);
        int gutter = Lines.gutter(lines, NUMBERED);
        List<Row> rows = new ArrayList<>();
        for (String line : lines) {
            Matcher header = Lines.HEADER.matcher(line);
            Matcher numbered = NUMBERED.matcher(line);
            if (header.matches()) {
                rows.add(Lines.header(header));
            } else if (numbered.matches()) {
                rows.add(Lines.numbered(numbered.group(1), gutter, numbered.group(2), Styles.DIM, Styles.PLAIN));
            } else if (Lines.NOTE.matcher(line).matches()) {
                rows.add(Lines.note(line));
            } else {
                rows.add(Row.of(line));
            }
        }
        return rows;
    }
}
