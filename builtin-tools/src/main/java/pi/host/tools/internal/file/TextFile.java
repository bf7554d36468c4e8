package pi.host.tools.internal.file;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A file as lines of raw bytes, each with its own line end, so an Edit rewrites only the lines
 * its ops name: a BOM, CRLF or LF ends, a missing final newline and bytes that are not UTF-8
 * outside the edited lines come back byte for byte.
 */
final class TextFile {

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final byte[] LF = {'\n'};
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] NONE = {};

    /** One line: its bytes without the end, its end, and whether an op wrote it. */
    record Line(byte[] content, byte[] end, boolean changed) {
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
                lines.add(new Line(copy(bytes, start, cr ? i - 1 : i), end, false));
                start = i + 1;
            }
        }
        if (start < bytes.length) {
            lines.add(new Line(copy(bytes, start, bytes.length), NONE, false));
        }
        return new TextFile(bom, lines, eol == null ? LF : eol);
    }

    private static byte[] copy(byte[] b, int from, int to) {
        byte[] out = new byte[to - from];
        System.arraycopy(b, from, out, 0, out.length);
        return out;
    }

    int size() {
        return lines.size();
    }

    boolean endsWithNewline() {
        return lines.isEmpty() || lines.get(lines.size() - 1).end().length > 0;
    }

    String text(int lineNo) {
        return new String(lines.get(lineNo - 1).content(), StandardCharsets.UTF_8);
    }

    /**
     * Applies the line ops of a script (ranges already checked). New lines end with the file's line
     * end; the final-newline state is kept (an empty file's new lines all end with a newline).
     */
    TextFile apply(EditScript script) {
        Map<Long, EditScript.Op> ranges = new TreeMap<>();
        Map<Long, List<EditScript.Op>> inserts = new TreeMap<>();
        long n = lines.size();
        for (EditScript.Op o : script.ops) {
            if (o.kind() == EditScript.Kind.REPLACE) {
                ranges.put(o.first(), o);
            } else if (o.kind() == EditScript.Kind.INSERT) {
                inserts.computeIfAbsent(o.atEnd() ? n : o.first(), k -> new ArrayList<>()).add(o);
            }
        }
        List<Line> out = new ArrayList<>();
        insertAfter(0, inserts, out);
        long i = 1;
        while (i <= n) {
            EditScript.Op r = ranges.get(i);
            if (r != null) {
                for (String s : r.body()) {
                    out.add(new Line(s.getBytes(StandardCharsets.UTF_8), eol, true));
                }
                i = r.last() + 1;
                insertAfter(r.last(), inserts, out);
            } else {
                out.add(lines.get((int) (i - 1)));
                insertAfter(i, inserts, out);
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
                out.set(k, new Line(l.content(), end, l.changed()));
            }
        }
        return new TextFile(bom, out, eol);
    }

    private void insertAfter(long at, Map<Long, List<EditScript.Op>> inserts, List<Line> out) {
        for (EditScript.Op o : inserts.getOrDefault(at, List.of())) {
            for (String s : o.body()) {
                out.add(new Line(s.getBytes(StandardCharsets.UTF_8), eol, true));
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
     * The lines of this (edited) file that show content the session saw before: unchanged lines
     * keep their identity through {@link #apply}, so a displayed old line stays displayed at its new
     * number.
     */
    BitSet carriedOver(TextFile before, BitSet seenBefore) {
        java.util.IdentityHashMap<Line, Integer> oldNumbers = new java.util.IdentityHashMap<>();
        for (int k = 0; k < before.lines.size(); k++) {
            oldNumbers.put(before.lines.get(k), k + 1);
        }
        BitSet b = new BitSet();
        for (int k = 0; k < lines.size(); k++) {
            Integer old = oldNumbers.get(lines.get(k));
            if (old != null && seenBefore.get(old)) {
                b.set(k + 1);
            }
        }
        return b;
    }

    byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (bom) {
            out.writeBytes(BOM);
        }
        for (Line l : lines) {
            out.writeBytes(l.content());
            out.writeBytes(l.end());
        }
        return out.toByteArray();
    }
}
