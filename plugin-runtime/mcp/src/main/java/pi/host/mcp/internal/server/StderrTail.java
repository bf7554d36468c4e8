package pi.host.mcp.internal.server;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The last lines a server wrote to stderr, for {@code mcp.list}: at most {@link #MAX_LINES} lines of at most
 * {@link #MAX_LINE} characters each, control characters shown as {@code ?}. Thread-safe.
 */
final class StderrTail {

    static final int MAX_LINES = 40;
    static final int MAX_LINE = 500;

    private final Deque<String> lines = new ArrayDeque<>();

    void add(String line) {
        String shown = line.length() > MAX_LINE ? line.substring(0, MAX_LINE) + "..." : line;
        StringBuilder clean = new StringBuilder(shown.length());
        shown.codePoints().forEach(cp -> clean.appendCodePoint(Character.isISOControl(cp) && cp != '\t' ? '?' : cp));
        synchronized (lines) {
            if (lines.size() == MAX_LINES) {
                lines.removeFirst();
            }
            lines.addLast(clean.toString());
        }
    }

    /** The kept lines, joined with newlines (empty when there are none). */
    String text() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** The last line, or null. */
    String last() {
        synchronized (lines) {
            return lines.peekLast();
        }
    }
}
