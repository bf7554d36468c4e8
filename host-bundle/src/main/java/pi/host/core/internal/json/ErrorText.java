package pi.host.core.internal.json;

import java.util.List;

/**
 * The bounds of every text that refuses input (JSON-RPC error messages, the host's tool-result
 * errors, schema problems). A refusal names what it refused, so it echoes input; without a bound a
 * request of a few MB with many bad keys was answered with tens of MB. The bounds are far below the
 * request line bound (16 MiB), so a refusal is never larger than a small request.
 */
public final class ErrorText {

    /** The longest error text, in characters; past it the text is cut and says how much was left out. */
    public static final int MAX_CHARS = 4096;
    /** Problems listed by {@link #problems} (the rest are counted). */
    public static final int MAX_PROBLEMS = 10;
    /** The longest single problem of a list, in characters. */
    public static final int MAX_PROBLEM_CHARS = 300;
    /** The longest echoed value (an id, a name) kept by {@link #quote}, in characters. */
    public static final int MAX_ECHO_CHARS = 80;

    private ErrorText() {
    }

    /** {@code text} cut to {@link #MAX_CHARS}. */
    public static String bound(String text) {
        return cut(text, MAX_CHARS);
    }

    /**
     * {@code text} cut to {@code max} characters (never through a surrogate pair), with a note of how
     * many were left out; unchanged when it fits.
     */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        String note = "… [" + text.length() + " characters, cut]";
        int keep = Math.max(0, max - note.length());
        if (keep > 0 && Character.isHighSurrogate(text.charAt(keep - 1))) {
            keep--;
        }
        return text.substring(0, keep) + note;
    }

    /** A value from the input, quoted, cut to {@link #MAX_ECHO_CHARS}: {@code 'abc'} or {@code 'abc…' (N characters)}. */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        if (value.length() <= MAX_ECHO_CHARS) {
            return "'" + value + "'";
        }
        int keep = MAX_ECHO_CHARS;
        if (Character.isHighSurrogate(value.charAt(keep - 1))) {
            keep--;
        }
        return "'" + value.substring(0, keep) + "…' (" + value.length() + " characters)";
    }

    /**
     * The first {@link #MAX_PROBLEMS} problems, each cut to {@link #MAX_PROBLEM_CHARS}, and one more
     * entry counting the rest ({@code and N more problems}); the list itself when it is short.
     */
    public static List<String> first(List<String> problems) {
        if (problems.size() <= MAX_PROBLEMS && allShort(problems)) {
            return problems;
        }
        int shown = Math.min(problems.size(), MAX_PROBLEMS);
        String[] out = new String[shown + (problems.size() > shown ? 1 : 0)];
        for (int i = 0; i < shown; i++) {
            out[i] = cut(problems.get(i), MAX_PROBLEM_CHARS);
        }
        if (problems.size() > shown) {
            out[shown] = "and " + (problems.size() - shown) + " more problem" + (problems.size() - shown == 1 ? "" : "s");
        }
        return List.of(out);
    }

    /** A loop, not a stream: a stream's set-up is dozens of interpreted calls on a cold host's call path. */
    private static boolean allShort(List<String> problems) {
        for (String p : problems) {
            if (p.length() > MAX_PROBLEM_CHARS) {
                return false;
            }
        }
        return true;
    }
}
