package pi.host.tools.internal.file;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where the lines of a file's bytes start, so a caller decodes only the lines it shows: Grep shows a
 * few lines of each file it tags, and decoding every line of every shown file into a string was most of
 * a first Grep's time after rg (docs/performance-log.md, "Issue 19"). The lines are those of
 * {@link Searcher#lines} (the same text for every line number: split at {@code \n}, a {@code \r} before it
 * dropped, a leading UTF-8 BOM dropped, no empty line after a final {@code \n}); a newline byte is never
 * part of a UTF-8 sequence, so decoding one line's bytes gives the text decoding the whole file gives it.
 */
final class LineIndex {

    private final byte[] bytes;
    private final int len;
    /** starts[i]: the offset of line i + 1; starts[count]: just past the end of the last line's newline. */
    private final int[] starts;
    private final int count;

    private LineIndex(byte[] bytes, int len, int[] starts, int count) {
        this.bytes = bytes;
        this.len = len;
        this.starts = starts;
        this.count = count;
    }

    /**
     * The index of the first {@code len} bytes of {@code bytes} (which it keeps; they must not change), or
     * null when they are binary: a NUL in the first {@link GrepTool#SNIFF_BYTES} ({@link Searcher#binary}'s
     * test). One pass over the bytes for both:
     * Grep sniffs and indexes every file it shows, and the separate sniff was a second loop to run and
     * for the JIT to compile during the first Grep (docs/performance-log.md, "branch grep5").
     */
    static LineIndex ofText(byte[] bytes, int len) {
        int start = len >= 3 && bytes[0] == (byte) 0xEF && bytes[1] == (byte) 0xBB && bytes[2] == (byte) 0xBF ? 3 : 0;
        int[] starts = new int[64];
        int count = 0;
        starts[0] = start;
        // one loop for both tests, so every byte takes the same compiled path: a loop of its own for the head
        // or for the rest is code a warm-up on short inputs never runs, which C2 then compiles as a trap
        int head = Math.min(len, GrepTool.SNIFF_BYTES);
        for (int i = start; i < len; i++) {
            byte b = bytes[i];
            if (b == '\n') {
                if (++count == starts.length) {
                    starts = Arrays.copyOf(starts, count * 2);
                }
                starts[count] = i + 1;
            } else if (b == 0 && i < head) { // a BOM has no NUL: starting after it tests the same head
                return null;
            }
        }
        if (starts[count] < len) { // a last line without a newline
            if (++count == starts.length) {
                starts = Arrays.copyOf(starts, count + 1);
            }
            starts[count] = len + 1; // as if a newline followed it
        }
        return new LineIndex(bytes, len, starts, count);
    }

    /** The number of lines. */
    int count() {
        return count;
    }

    /** Line {@code n} (1-based) without its terminator. */
    String line(int n) {
        if (n < 1 || n > count) {
            throw new IndexOutOfBoundsException("line " + n + " of " + count);
        }
        int from = starts[n - 1];
        int to = Math.min(starts[n] - 1, len); // the newline's offset (len for a last line without one)
        if (to > from && bytes[to - 1] == '\r' && to < len) {
            to--;
        }
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }
}
