package pi.host.console.internal.render;

import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.WCWidth;

/**
 * What reaches the screen: text from files and commands with every control character made visible
 * (so a file or a command's output cannot move the cursor, clear the screen, recolour or reorder what
 * follows), and rows wrapped to the screen's width by display columns.
 */
public final class Text {

    /** Tab stops, counted from the start of the text a tab is in. */
    static final int TAB = 4;

    private Text() {
    }

    /**
     * The text with tabs expanded and control characters shown as {@code ^X} (C0, DEL) or
     * {@code <U+XXXX>} (C1 controls, bidirectional overrides and isolates). Line ends must have
     * been split off before; a stray CR is dropped.
     */
    public static String sanitize(String text) {
        StringBuilder out = null;
        int column = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = null;
            if (c == '\t') {
                replacement = " ".repeat(TAB - column % TAB);
            } else if (c == '\r') {
                replacement = "";
            } else if (c < 0x20 || c == 0x7f) {
                replacement = "^" + (char) (c == 0x7f ? '?' : c + 0x40);
            } else if ((c >= 0x80 && c < 0xa0) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
                replacement = String.format("<U+%04X>", (int) c);
            }
            if (replacement != null && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                out.append(replacement != null ? replacement : String.valueOf(c));
            }
            column += replacement != null ? replacement.length() : 1;
        }
        return out == null ? text : out.toString();
    }

    /** The display width of a code point (2 for wide East Asian characters, 0 for combining marks). */
    public static int columns(int codePoint) {
        return Math.max(0, WCWidth.wcwidth(codePoint));
    }

    /** The rows a logical row takes on a screen {@code width} columns wide (no wrapping when width < 1). */
    public static List<AttributedString> wrap(Row row, int width) {
        AttributedString text = row.text();
        List<AttributedString> rows = new ArrayList<>();
        int total = text.columnLength();
        if (width < 1 || total <= width) {
            rows.add(text);
            return rows;
        }
        int hang = row.hang() <= width / 2 ? row.hang() : 0;
        int start = 0;
        boolean first = true;
        while (start < total) {
            int room = first ? width : width - hang;
            int end = Math.min(total, start + room);
            AttributedString piece = text.columnSubSequence(start, end);
            if (piece.columnLength() == 0 && end < total) {
                // a wide character that does not fit the room left: move it to the next row
                end = Math.min(total, start + room + 1);
                piece = text.columnSubSequence(start, end);
            }
            if (first) {
                rows.add(piece);
            } else {
                rows.add(new AttributedStringBuilder().append(" ".repeat(hang)).append(piece).toAttributedString());
            }
            start = start + Math.max(1, piece.columnLength());
            first = false;
        }
        return rows;
    }
}
