package pi.host.console.internal.render;

import java.util.function.IntSupplier;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Shows a running command's {@code tool.output} as it arrives: each line prefixed by its stream's
 * mark ({@link StreamView}), partial lines shown at once (a progress dot appears when it is
 * printed), a line that would pass the screen's right edge continued on the next row, a change of
 * stream starting a new row, control characters made visible. The width is asked for each chunk,
 * so a resize applies from the next chunk on.
 */
public final class StreamPrinter {

    /** Where the printed pieces go, in order. */
    public interface Sink {
        void write(org.jline.utils.AttributedString piece);
    }

    private final Sink sink;
    private final IntSupplier width;
    private Boolean stderr; // the stream of the row being written, null before the first chunk
    private int column;
    private boolean printed;

    public StreamPrinter(Sink sink, IntSupplier width) {
        this.sink = sink;
        this.width = width;
    }

    /** Whether any output was shown. */
    public boolean printed() {
        return printed;
    }

    public void chunk(boolean fromStderr, String text) {
        if (text.isEmpty()) {
            return;
        }
        printed = true;
        int w = width.getAsInt();
        AttributedStyle style = fromStderr ? Styles.STDERR : Styles.PLAIN;
        AttributedStringBuilder b = new AttributedStringBuilder();
        if (stderr != null && stderr != fromStderr && column > 0) {
            b.append("\n");
            column = 0;
        }
        stderr = fromStderr;
        int prefix = StreamView.STDOUT.length();
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\n') {
                if (column == 0) {
                    b.append(fromStderr ? StreamView.STDERR : StreamView.STDOUT, Styles.STDERR);
                }
                b.append("\n");
                column = 0;
                continue;
            }
            String shown = cp == '\t' ? " ".repeat(Text.TAB - Math.max(0, column - prefix) % Text.TAB)
                    : Text.sanitize(new String(Character.toChars(cp)));
            if (shown.isEmpty()) {
                continue;
            }
            int cols = cp == '\t' || shown.length() > 1 ? shown.length() : Text.columns(cp);
            if (column == 0) {
                b.append(fromStderr ? StreamView.STDERR : StreamView.STDOUT, Styles.STDERR);
                column = prefix;
            } else if (w > prefix + 1 && column + cols > w) {
                b.append("\n").append(" ".repeat(prefix));
                column = prefix;
            }
            b.append(shown, style);
            column += cols;
        }
        sink.write(b.toAttributedString());
    }

    /** Ends the last row if it is open. */
    public void finish() {
        if (column > 0) {
            sink.write(new org.jline.utils.AttributedString("\n"));
            column = 0;
        }
    }
}
