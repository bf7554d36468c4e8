package pi.host.console.internal.render;

import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Rows of columns for the slash commands' listings: every column but the last padded to its widest
 * cell; the last one is free and wraps under itself.
 */
public final class Table {

    private final List<String[]> cells = new ArrayList<>();
    private final List<AttributedStyle[]> styles = new ArrayList<>();
    private final String[] header;

    public Table(String... header) {
        this.header = header;
    }

    /** Adds a row; {@code style} colours the cell at {@code styled} (or -1 for none). */
    public Table add(int styled, AttributedStyle style, String... row) {
        String[] clean = new String[row.length];
        AttributedStyle[] s = new AttributedStyle[row.length];
        for (int i = 0; i < row.length; i++) {
            clean[i] = Text.sanitize(row[i] == null ? "" : row[i]);
            s[i] = i == styled ? style : Styles.PLAIN;
        }
        cells.add(clean);
        styles.add(s);
        return this;
    }

    public Table add(String... row) {
        return add(-1, Styles.PLAIN, row);
    }

    public boolean isEmpty() {
        return cells.isEmpty();
    }

    /** The rows, the last column cut with "..." so that each row fits {@code width} columns (0: no cut). */
    public List<Row> rows(int width) {
        List<Row> rows = rows();
        if (width < 1) {
            return rows;
        }
        List<Row> fitted = new ArrayList<>();
        for (Row r : rows) {
            org.jline.utils.AttributedString t = r.text();
            if (t.columnLength() <= width || r.hang() + 8 > width) {
                fitted.add(r);
            } else {
                fitted.add(new Row(new AttributedStringBuilder().append(t.columnSubSequence(0, width - 3))
                        .append("...", Styles.DIM).toAttributedString(), r.hang()));
            }
        }
        return fitted;
    }

    public List<Row> rows() {
        int columns = header.length;
        int[] width = new int[columns];
        for (int i = 0; i < columns; i++) {
            width[i] = header[i].length();
        }
        for (String[] r : cells) {
            for (int i = 0; i < columns - 1 && i < r.length; i++) {
                width[i] = Math.max(width[i], new org.jline.utils.AttributedString(r[i]).columnLength());
            }
        }
        List<Row> out = new ArrayList<>();
        out.add(row(header, null, width, Styles.DIM));
        for (int k = 0; k < cells.size(); k++) {
            out.add(row(cells.get(k), styles.get(k), width, null));
        }
        return out;
    }

    private static Row row(String[] r, AttributedStyle[] s, int[] width, AttributedStyle all) {
        AttributedStringBuilder b = new AttributedStringBuilder();
        int hang = 0;
        for (int i = 0; i < width.length; i++) {
            String cell = i < r.length ? r[i] : "";
            AttributedStyle style = all != null ? all : s[i];
            b.append(cell, style);
            if (i < width.length - 1) {
                int pad = width[i] - new org.jline.utils.AttributedString(cell).columnLength() + 2;
                b.append(" ".repeat(Math.max(1, pad)));
                hang += width[i] + 2;
            }
        }
        return new Row(b.toAttributedString(), hang);
    }
}
