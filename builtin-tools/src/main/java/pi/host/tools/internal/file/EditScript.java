package pi.host.tools.internal.file;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import pi.host.api.ErrorCode;

/**
 * The {@code ops} text of an Edit, parsed (EDIT-CONTRACT.md, docs/edit-contract.md):
 *
 * <pre>
 * PUT a.=b:   replace lines a..b with the body that follows (no body: delete them)
 * PUT &gt;a:     insert the body after line a (&gt;0 at the top, &gt;$ at the end)
 * DEL a.=b    delete lines a..b
 * MV DEST     move the file to DEST
 * REM         remove the file
 * +text       a body line (the + is removed)
 * </pre>
 *
 * Blank lines between ops are ignored; anything else is {@code EDIT_PARSE_FAILED} naming the line.
 */
final class EditScript {

    enum Kind { REPLACE, INSERT, MOVE, REMOVE }

    /** One op; {@code line} is its header's line in the ops text, {@code first..last} its range. */
    record Op(Kind kind, int line, String header, long first, long last, boolean atEnd, List<String> body,
            String dest) {

        /** The line an op anchors on for the unseen check: a..b, a for an insert, nothing for >0, >$, MV, REM. */
        long anchorFrom() {
            return kind == Kind.REPLACE ? first : kind == Kind.INSERT && !atEnd && first > 0 ? first : 0;
        }

        long anchorTo() {
            return kind == Kind.REPLACE ? last : anchorFrom();
        }
    }

    /** A parse or range error; {@code code} is EDIT_PARSE_FAILED or EDIT_RANGE_INVALID. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;
        final ErrorCode code;

        Failure(ErrorCode code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    private static final Pattern PUT_RANGE = Pattern.compile("PUT (\\d{1,9})\\.=(\\d{1,9}):");
    private static final Pattern PUT_AFTER = Pattern.compile("PUT >(\\d{1,9}|\\$):");
    private static final Pattern DEL = Pattern.compile("DEL (\\d{1,9})\\.=(\\d{1,9})");
    private static final Pattern MV = Pattern.compile("MV\\s+(\\S.*)");
    private static final String GRAMMAR = "an op header (PUT a.=b:, PUT >a:, PUT >0:, PUT >$:, DEL a.=b, MV DEST, REM)"
            + " or a body line starting with +";

    final List<Op> ops;

    private EditScript(List<Op> ops) {
        this.ops = ops;
    }

    static EditScript parse(String text) throws Failure {
        List<Op> ops = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        Op open = null; // the op whose body lines may follow
        List<String> body = null;
        for (int i = 0; i < lines.length; i++) {
            int no = i + 1;
            String raw = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (raw.startsWith("+")) {
                if (open == null) {
                    throw parse(no, raw, "a body line must follow a PUT header");
                }
                body.add(raw.substring(1));
                continue;
            }
            if (raw.isBlank()) {
                continue;
            }
            if (open != null) {
                ops.add(close(open, body));
                open = null;
            }
            String h = raw.strip();
            Matcher m;
            if ((m = PUT_RANGE.matcher(h)).matches()) {
                open = new Op(Kind.REPLACE, no, h, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), false,
                        List.of(), null);
                body = new ArrayList<>();
            } else if ((m = PUT_AFTER.matcher(h)).matches()) {
                boolean end = m.group(1).equals("$");
                long a = end ? -1 : Long.parseLong(m.group(1));
                open = new Op(Kind.INSERT, no, h, a, a, end, List.of(), null);
                body = new ArrayList<>();
            } else if ((m = DEL.matcher(h)).matches()) {
                ops.add(new Op(Kind.REPLACE, no, h, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), false,
                        List.of(), null));
            } else if ((m = MV.matcher(h)).matches()) {
                ops.add(new Op(Kind.MOVE, no, h, 0, 0, false, List.of(), m.group(1).strip()));
            } else if (h.equals("REM")) {
                ops.add(new Op(Kind.REMOVE, no, h, 0, 0, false, List.of(), null));
            } else {
                throw parse(no, raw, hint(h));
            }
        }
        if (open != null) {
            ops.add(close(open, body));
        }
        if (ops.isEmpty()) {
            throw new Failure(ErrorCode.EDIT_PARSE_FAILED, "ops holds no op; expected " + GRAMMAR);
        }
        long moves = ops.stream().filter(o -> o.kind() == Kind.MOVE).count();
        long removes = ops.stream().filter(o -> o.kind() == Kind.REMOVE).count();
        if (moves > 1) {
            throw new Failure(ErrorCode.EDIT_PARSE_FAILED, "line " + second(ops, Kind.MOVE).line()
                    + ": only one MV per Edit");
        }
        if (removes > 0 && ops.size() > 1) {
            Op rem = ops.stream().filter(o -> o.kind() == Kind.REMOVE).findFirst().orElseThrow();
            throw new Failure(ErrorCode.EDIT_PARSE_FAILED, "line " + rem.line() + ": REM removes the file and must"
                    + " stand alone");
        }
        return new EditScript(List.copyOf(ops));
    }

    private static Op second(List<Op> ops, Kind kind) {
        return ops.stream().filter(o -> o.kind() == kind).skip(1).findFirst().orElseThrow();
    }

    private static Op close(Op op, List<String> body) throws Failure {
        if (op.kind() == Kind.INSERT && body.isEmpty()) {
            throw new Failure(ErrorCode.EDIT_PARSE_FAILED, "line " + op.line() + ": '" + op.header()
                    + "' inserts nothing; give body lines starting with +");
        }
        return new Op(op.kind(), op.line(), op.header(), op.first(), op.last(), op.atEnd(), List.copyOf(body), null);
    }

    private static String hint(String h) {
        if (h.matches("PUT \\d+\\.=\\d+") || h.matches("PUT >(\\d+|\\$)")) {
            return "a PUT header ends with ':'";
        }
        if (h.matches("DEL \\d+\\.=\\d+:")) {
            return "DEL takes no ':' and no body";
        }
        if (h.matches("(PUT|DEL) \\d+(-|\\.\\.|,)\\d+:?")) {
            return "ranges are written a.=b (for example PUT 48.=48:)";
        }
        if (h.matches("PUT \\d+:?") || h.matches("DEL \\d+")) {
            return "a single line is the range a.=a (for example PUT 48.=48:)";
        }
        return "expected " + GRAMMAR;
    }

    private static Failure parse(int no, String raw, String why) {
        String shown = raw.length() > 80 ? raw.substring(0, 80) + "…" : raw;
        return new Failure(ErrorCode.EDIT_PARSE_FAILED, "ops line " + no + ": '" + shown + "': " + why);
    }

    /**
     * Checks every range against a file of {@code lines} lines and that no two ranges overlap
     * (an insert point strictly inside a replaced range overlaps it).
     */
    void checkRanges(long lines) throws Failure {
        List<Op> ranges = new ArrayList<>();
        for (Op o : ops) {
            if (o.kind() == Kind.REPLACE) {
                if (o.first() < 1 || o.first() > o.last() || o.last() > lines) {
                    throw range(o, o.first() > o.last() ? "the range runs backwards" : "the file has " + lines
                            + " lines" + (lines == 0 ? "" : " (1.=" + lines + ")"));
                }
                ranges.add(o);
            } else if (o.kind() == Kind.INSERT && !o.atEnd() && o.first() > lines) {
                throw range(o, "the file has " + lines + " lines; insert after 0.." + lines + " or $");
            }
        }
        ranges.sort((x, y) -> Long.compare(x.first(), y.first()));
        for (int i = 1; i < ranges.size(); i++) {
            if (ranges.get(i).first() <= ranges.get(i - 1).last()) {
                throw range(ranges.get(i), "it overlaps '" + ranges.get(i - 1).header() + "' (ops line "
                        + ranges.get(i - 1).line() + ")");
            }
        }
        for (Op o : ops) {
            if (o.kind() != Kind.INSERT) {
                continue;
            }
            long at = o.atEnd() ? lines : o.first();
            for (Op r : ranges) {
                if (r.first() <= at && at < r.last()) {
                    throw range(o, "its insert point is inside '" + r.header() + "' (ops line " + r.line() + ")");
                }
            }
        }
    }

    private static Failure range(Op o, String why) {
        return new Failure(ErrorCode.EDIT_RANGE_INVALID, "ops line " + o.line() + ": '" + o.header() + "': " + why);
    }

    Op move() {
        return ops.stream().filter(o -> o.kind() == Kind.MOVE).findFirst().orElse(null);
    }

    boolean removes() {
        return ops.size() == 1 && ops.get(0).kind() == Kind.REMOVE;
    }
}
