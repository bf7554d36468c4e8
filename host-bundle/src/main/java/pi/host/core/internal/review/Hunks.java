package pi.host.core.internal.review;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.ChangeDelta;
import com.github.difflib.patch.Chunk;
import com.github.difflib.patch.Patch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The diff part of a ReviewChange: additions, deletions and unified hunks (3 lines of context)
 * computed with java-diff-utils. Binary content (a NUL byte in the first 8 KiB) gets no hunks;
 * content past the bounds gets counts of its lines and no hunks ({@code truncated}).
 */
final class Hunks {

    /** Either side larger than this is not diffed. */
    static final int MAX_DIFF_BYTES = 2 * 1024 * 1024;
    /** At most this many hunk lines go on one record; the rest are cut ({@code truncated}). */
    static final int MAX_HUNK_LINES = 4000;
    /** Above this many old × new lines (after the common head and tail) Myers is not run. */
    static final long MAX_MYERS_CELLS = 1_000_000;
    private static final int CONTEXT = 3;
    private static final Pattern HEADER = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");

    /** The diff fields of a record, in wire order. */
    static Map<String, Object> of(byte[] before, byte[] after) {
        byte[] b = before == null ? new byte[0] : before;
        byte[] a = after == null ? new byte[0] : after;
        Map<String, Object> out = new LinkedHashMap<>();
        if (binary(b) || binary(a)) {
            out.put("additions", 0);
            out.put("deletions", 0);
            out.put("hunks", List.of());
            out.put("binary", true);
            return out;
        }
        if (b.length > MAX_DIFF_BYTES || a.length > MAX_DIFF_BYTES) {
            // too large to diff here: upper bounds, no hunks (counted, not split into strings)
            out.put("additions", lineCount(a));
            out.put("deletions", lineCount(b));
            out.put("hunks", List.of());
            out.put("truncated", true);
            return out;
        }
        List<String> old = lines(b);
        List<String> neu = lines(a);
        Patch<String> patch = diff(old, neu);
        int additions = 0;
        int deletions = 0;
        for (AbstractDelta<String> d : patch.getDeltas()) {
            additions += d.getTarget().size();
            deletions += d.getSource().size();
        }
        List<Map<String, Object>> hunks = new ArrayList<>();
        boolean cut = false;
        int budget = MAX_HUNK_LINES;
        Map<String, Object> hunk = null;
        List<String> hunkLines = null;
        for (String line : UnifiedDiffUtils.generateUnifiedDiff("a", "b", old, patch, CONTEXT)) {
            if (line.startsWith("---") && hunk == null || line.startsWith("+++") && hunk == null) {
                continue;
            }
            Matcher m = HEADER.matcher(line);
            if (m.find()) {
                hunk = new LinkedHashMap<>();
                hunk.put("oldStart", Integer.parseInt(m.group(1)));
                hunk.put("oldLines", m.group(2) == null ? 1 : Integer.parseInt(m.group(2)));
                hunk.put("newStart", Integer.parseInt(m.group(3)));
                hunk.put("newLines", m.group(4) == null ? 1 : Integer.parseInt(m.group(4)));
                hunkLines = new ArrayList<>();
                hunk.put("lines", hunkLines);
                if (budget <= 0) {
                    cut = true;
                    break;
                }
                hunks.add(hunk);
                continue;
            }
            if (hunkLines != null) {
                if (budget-- <= 0) {
                    cut = true;
                    break;
                }
                hunkLines.add(line);
            }
        }
        out.put("additions", additions);
        out.put("deletions", deletions);
        out.put("hunks", hunks);
        if (cut) {
            out.put("truncated", true);
        }
        return out;
    }

    /**
     * Myers' diff costs O((N+M)·D): fine for edits, minutes for a rewrite of a large file. The
     * common head and tail are cut first; when what is left is larger than {@link #MAX_MYERS_CELLS}
     * (old × new lines) it is reported as one replaced block: a correct diff, not a minimal one.
     */
    static Patch<String> diff(List<String> old, List<String> neu) {
        int head = 0;
        int max = Math.min(old.size(), neu.size());
        while (head < max && old.get(head).equals(neu.get(head))) {
            head++;
        }
        int tail = 0;
        while (tail < max - head && old.get(old.size() - 1 - tail).equals(neu.get(neu.size() - 1 - tail))) {
            tail++;
        }
        List<String> oldMid = old.subList(head, old.size() - tail);
        List<String> newMid = neu.subList(head, neu.size() - tail);
        if ((long) oldMid.size() * newMid.size() <= MAX_MYERS_CELLS) {
            return DiffUtils.diff(old, neu);
        }
        Patch<String> patch = new Patch<>();
        patch.addDelta(new ChangeDelta<>(new Chunk<>(head, new ArrayList<>(oldMid)),
                new Chunk<>(head, new ArrayList<>(newMid))));
        return patch;
    }

    static boolean binary(byte[] bytes) {
        int n = Math.min(bytes.length, 8192);
        for (int i = 0; i < n; i++) {
            if (bytes[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** How many lines {@link #lines} would return. */
    static int lineCount(byte[] bytes) {
        int n = 0;
        for (byte c : bytes) {
            if (c == '\n') {
                n++;
            }
        }
        return bytes.length > 0 && bytes[bytes.length - 1] != '\n' ? n + 1 : n;
    }

    /** Lines without their ends (LF or CRLF); a final line end does not start another line. */
    static List<String> lines(byte[] bytes) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                int end = i > start && bytes[i - 1] == '\r' ? i - 1 : i;
                out.add(new String(bytes, start, end - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < bytes.length) {
            out.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
        }
        return out;
    }

    private Hunks() {
    }
}
