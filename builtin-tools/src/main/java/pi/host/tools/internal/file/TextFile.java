package pi.host.tools.internal.file;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A file as lines of raw bytes, each with its own line end, so an Edit rewrites only the lines
 * its ops name: a BOM, CRLF or LF ends, a missing final newline and bytes that are not UTF-8
 * outside the edited lines come back byte for byte. A line is a slice of the file's bytes, never a
 * copy: a 200,000-line file is one array and a list of slices (issue 4's Edit benchmark).
 */
final class TextFile {

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final byte[] LF = {'\n'};
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] NONE = {};

    /**
     * One line: {@code bytes[from, to)} without the end, its end, whether an op wrote it, and the
     * number it had in the file it was carried over from unchanged (0: written by an op, or its end
     * was rewritten).
     */
    record Line(byte[] bytes, int from, int to, byte[] end, boolean changed, int origin) {

        static Line written(String text, byte[] end) {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            return new Line(b, 0, b.length, end, true, 0);
        }

        int length() {
            return to - from;
        }
    }

    final boolean bom;
    final List<Line> lines;
    /** The file's line end, used for new lines: the first line's end, else LF. */
    final byte[] eol;

    private TextFile(boolean bom, List<Line> lines, byte[] eol) {
        this.bom = bom;
        this.lines = lines;
        this.eol = eol;
    }

    /** The lines of {@code bytes}, which the result keeps and must not change. */
    static TextFile parse(byte[] bytes) {
        boolean bom = bytes.length >= 3 && bytes[0] == BOM[0] && bytes[1] == BOM[1] && bytes[2] == BOM[2];
        int start = bom ? 3 : 0;
        List<Line> lines = new ArrayList<>();
        byte[] eol = null;
        for (int i = start; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                boolean cr = i > start && bytes[i - 1] == '\r';
                byte[] end = cr ? CRLF : LF;
                if (eol == null) {
                    eol = end;
                }
                lines.add(new Line(bytes, start, cr ? i - 1 : i, end, false, lines.size() + 1));
                start = i + 1;
            }
        }
        if (start < bytes.length) {
            lines.add(new Line(bytes, start, bytes.length, NONE, false, lines.size() + 1));
        }
        return new TextFile(bom, lines, eol == null ? LF : eol);
    }

    int size() {
        return lines.size();
    }

    boolean endsWithNewline() {
        return lines.isEmpty() || lines.get(lines.size() - 1).end().length > 0;
    }

    String text(int lineNo) {
        Line l = lines.get(lineNo - 1);
        return new String(l.bytes(), l.from(), l.length(), StandardCharsets.UTF_8);
    }

    /**
     * Applies the line ops of a script (ranges already checked). New lines end with the file's line
     * end; the final-newline state is kept (an empty file's new lines all end with a newline).
     */
    TextFile apply(EditScript script) {
        int n = lines.size();
        // indexed by line number: one array look-up per line instead of a boxed map look-up
        EditScript.Op[] rangeAt = new EditScript.Op[n + 1];
        Map<Integer, List<EditScript.Op>> inserts = new HashMap<>();
        BitSet insertAfter = new BitSet(n + 1);
        int added = 0;
        for (EditScript.Op o : script.ops) {
            if (o.kind() == EditScript.Kind.REPLACE) {
                rangeAt[(int) o.first()] = o;
                added += o.body().size();
            } else if (o.kind() == EditScript.Kind.INSERT) {
                int at = o.atEnd() ? n : (int) o.first();
                inserts.computeIfAbsent(at, k -> new ArrayList<>()).add(o);
                insertAfter.set(at);
                added += o.body().size();
            }
        }
        List<Line> out = new ArrayList<>(n + added);
        insertAfter(0, insertAfter, inserts, out);
        int i = 1;
        while (i <= n) {
            EditScript.Op r = rangeAt[i];
            if (r != null) {
                for (String s : r.body()) {
                    out.add(Line.written(s, eol));
                }
                i = (int) r.last() + 1;
                insertAfter((int) r.last(), insertAfter, inserts, out);
            } else {
                out.add(lines.get(i - 1));
                insertAfter(i, insertAfter, inserts, out);
                i++;
            }
        }
        boolean finalNewline = lines.isEmpty() || endsWithNewline();
        for (int k = 0; k < out.size(); k++) {
            Line l = out.get(k);
            boolean lastLine = k == out.size() - 1;
            byte[] end = lastLine ? (finalNewline ? (l.end().length > 0 ? l.end() : eol) : NONE)
                    : (l.end().length > 0 ? l.end() : eol);
            if (end != l.end()) {
                // a line whose end changed is not carried over as displayed
                out.set(k, new Line(l.bytes(), l.from(), l.to(), end, l.changed(), 0));
            }
        }
        return new TextFile(bom, out, eol);
    }

    private void insertAfter(int at, BitSet points, Map<Integer, List<EditScript.Op>> inserts, List<Line> out) {
        if (!points.get(at)) {
            return;
        }
        for (EditScript.Op o : inserts.get(at)) {
            for (String s : o.body()) {
                out.add(Line.written(s, eol));
            }
        }
    }

    /** The new numbers (1-based) of the lines an op wrote. */
    BitSet changedLines() {
        BitSet b = new BitSet();
        for (int k = 0; k < lines.size(); k++) {
            if (lines.get(k).changed()) {
                b.set(k + 1);
            }
        }
        return b;
    }

    /**
     * The lines of this file (the result of {@link #apply}) that show content the session saw
     * before: a line carried over unchanged keeps its old number as its origin, so a displayed old
     * line stays displayed at its new number.
     */
    BitSet carriedOver(BitSet seenBefore) {
        BitSet b = new BitSet();
        for (int k = 0; k < lines.size(); k++) {
            int old = lines.get(k).origin();
            if (old > 0 && seenBefore.get(old)) {
                b.set(k + 1);
            }
        }
        return b;
    }

    byte[] bytes() {
        long size = bom ? BOM.length : 0;
        for (Line l : lines) {
            size += l.length() + l.end().length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("the edited file would be larger than a Java array");
        }
        byte[] out = new byte[(int) size];
        int at = 0;
        if (bom) {
            System.arraycopy(BOM, 0, out, 0, BOM.length);
            at = BOM.length;
        }
        for (Line l : lines) {
            System.arraycopy(l.bytes(), l.from(), out, at, l.length());
            at += l.length();
            System.arraycopy(l.end(), 0, out, at, l.end().length);
            at += l.end().length;
        }
        return out;
    }
}
