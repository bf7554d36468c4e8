package pi.host.console.internal.render;

import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedStringBuilder;

/** How a command's output lines look: stdout indented, stderr marked {@code !} and red. */
public final class StreamView {

    /** The prefix of an output line; both are two columns, so the streams line up. */
    public static final String STDOUT = "  ";
    public static final String STDERR = "! ";

    private StreamView() {
    }

    /** A whole stream's text as rows (when it was not streamed). */
    static List<Row> block(String text, boolean stderr) {
        List<Row> rows = new ArrayList<>();
        for (String line : Lines.split(text)) {
            rows.add(line(line, stderr));
        }
        return rows;
    }

    public static Row line(String text, boolean stderr) {
        return new Row(new AttributedStringBuilder().append(stderr ? STDERR : STDOUT, Styles.STDERR)
                .append(Text.sanitize(text), stderr ? Styles.STDERR : Styles.PLAIN).toAttributedString(), 2);
    }
}
