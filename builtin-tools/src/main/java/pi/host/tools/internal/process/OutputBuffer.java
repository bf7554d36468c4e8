package pi.host.tools.internal.process;

/**
 * Keeps the first {@code headLimit} and the last {@code tailLimit} characters of a stream, in
 * bounded memory however long the stream runs, and says how much was cut between them.
 * Thread-safe: one pump appends while readers take snapshots.
 */
public final class OutputBuffer {

    private final int headLimit;
    private final int tailLimit;
    /** Allocated when the head is full: most commands never need it. */
    private char[] tail;
    private final StringBuilder head = new StringBuilder();
    private int tailStart;
    private int tailLength;
    private long total;

    public OutputBuffer(int headLimit, int tailLimit) {
        this.headLimit = headLimit;
        this.tailLimit = tailLimit;
    }

    public synchronized void append(CharSequence chunk) {
        int n = chunk.length();
        total += n;
        int i = 0;
        if (head.length() < headLimit) {
            int take = Math.min(headLimit - head.length(), n);
            head.append(chunk, 0, take);
            i = take;
        }
        if (tailLimit == 0 || i == n) {
            return;
        }
        if (tail == null) {
            tail = new char[tailLimit];
        }
        if (n - i > tail.length) {
            i = n - tail.length; // only the last tail.length characters of this chunk can survive
        }
        CharSequence rest = chunk.subSequence(i, n);
        int len = rest.length();
        int from = 0;
        while (from < len) {
            // copy in at most two slices: up to the end of the array, then from its start
            int at = (tailStart + tailLength) % tail.length;
            int room = tail.length - at;
            int take = Math.min(room, len - from);
            copy(rest, from, take, at);
            from += take;
            int overflow = Math.max(0, tailLength + take - tail.length);
            tailLength = Math.min(tail.length, tailLength + take);
            tailStart = (tailStart + overflow) % tail.length;
        }
    }

    private void copy(CharSequence from, int offset, int count, int at) {
        if (from instanceof java.nio.CharBuffer) {
            java.nio.CharBuffer cb = ((java.nio.CharBuffer) from).duplicate();
            cb.position(cb.position() + offset);
            cb.get(tail, at, count);
        } else if (from instanceof String) {
            ((String) from).getChars(offset, offset + count, tail, at);
        } else {
            for (int k = 0; k < count; k++) {
                tail[at + k] = from.charAt(offset + k);
            }
        }
    }

    /** Characters seen in all. */
    public synchronized long total() {
        return total;
    }

    /** Characters dropped between head and tail. */
    public synchronized long cut() {
        return Math.max(0, total - head.length() - tailLength);
    }

    /** The kept text: head, a marker saying how much was cut when something was, tail. */
    public synchronized String text() {
        long cut = cut();
        StringBuilder out = new StringBuilder(head.length() + tailLength + 80);
        out.append(head);
        if (cut > 0) {
            out.append("\n[... ").append(cut).append(" characters cut ...]\n");
        }
        for (int k = 0; k < tailLength; k++) {
            out.append(tail[(tailStart + k) % tail.length]);
        }
        return out.toString();
    }
}
