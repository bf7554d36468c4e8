package pi.host.tools.internal.file;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The literal text every match of a Grep pattern must contain, searched in a file's raw bytes so the
 * in-process searcher can skip files (and, for a pure literal, the regex) without decoding them.
 *
 * <p>Bytes are searched as an ISO-8859-1 string, one char per byte, so {@link String#indexOf} (a
 * JIT intrinsic) does the scanning. A needle is the UTF-8 encoding of the literal; in valid UTF-8 an
 * encoded character can only be found where that character is, so an occurrence in the bytes is an
 * occurrence in the decoded text. Case-insensitive needles are ASCII only and hold no character that
 * java.util.regex's Unicode case folding equates with a non-ASCII one (as {@code k} with the Kelvin
 * sign): then both cases of each byte are all a match can contain.
 *
 * <p>Only a conservative subset of the regex syntax is analysed; anything else (alternation, inline
 * flags, {@code \Q}, numeric escapes, nested classes) yields no needle, and the regex runs on every
 * file as before. The pattern must already have compiled.
 */
final class Needle {

    /** Shorter required literals filter too little to pay for the extra scan. */
    static final int MIN_REQUIRED = 3;
    /** Escapes followed by a letter that stand for one atom of two characters (classes, anchors, controls). */
    private static final String SIMPLE_ESCAPES = "wWdDsSbBhHvVRXAzZGtnrfae";
    private static final String META = "\\^$.|?*+()[]{}";

    /** The needle's bytes: UTF-8, lower-case ASCII when {@link #ci}. */
    private final byte[] bytes;
    private final String text;
    private final boolean ci;
    /** The index of the byte looked for first. */
    private final int rare;
    /** True when a line matches the pattern exactly when it contains the needle. */
    final boolean exact;

    private Needle(byte[] bytes, boolean ci, boolean exact) {
        this.bytes = bytes;
        this.text = new String(bytes, StandardCharsets.ISO_8859_1);
        this.ci = ci;
        this.exact = exact;
        this.rare = rarest(bytes);
    }

    /** The needle of {@code pattern} (java.util.regex syntax, already known to compile), or null. */
    static Needle of(String pattern, boolean ci) {
        String literal = pureLiteral(pattern);
        if (literal != null && encodable(literal)) {
            if (!ci) {
                return new Needle(literal.getBytes(StandardCharsets.UTF_8), false, true);
            }
            if (ciSafe(literal, 0, literal.length())) {
                return ciNeedle(literal, true);
            }
        }
        String required = literal != null ? literal : requiredLiteral(pattern);
        if (required == null || !encodable(required)) {
            return null;
        }
        if (ci) {
            required = longestCiSafe(required);
            if (required == null) {
                return null;
            }
            return required.length() < MIN_REQUIRED ? null : ciNeedle(required, false);
        }
        byte[] b = required.getBytes(StandardCharsets.UTF_8);
        return b.length < MIN_REQUIRED ? null : new Needle(b, false, false);
    }

    private static Needle ciNeedle(String ascii, boolean exact) {
        byte[] b = ascii.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < b.length; i++) {
            b[i] = lower(b[i]);
        }
        return new Needle(b, true, exact);
    }

    /** The next occurrence at or after {@code from} in bytes held one per char, or -1. */
    int find(String latin1, int from) {
        // the needle's rarest byte is found by the intrinsic single-char scan, then the rest compared
        int first = bytes[rare] & 0xFF;
        int other = ci ? upper((byte) first) : first;
        int last = latin1.length() - bytes.length; // the last start an occurrence can have
        int a = latin1.indexOf(first, from + rare);
        int b = other == first ? -1 : latin1.indexOf(other, from + rare);
        while (a >= 0 || b >= 0) {
            int hit = a < 0 ? b : b < 0 ? a : Math.min(a, b);
            int at = hit - rare;
            if (at > last) {
                return -1;
            }
            if (regionMatches(latin1, at)) {
                return at;
            }
            if (hit == a) {
                a = latin1.indexOf(first, hit + 1);
            } else {
                b = latin1.indexOf(other, hit + 1);
            }
        }
        return -1;
    }

    private boolean regionMatches(String latin1, int at) {
        if (!ci) {
            return latin1.startsWith(text, at);
        }
        for (int j = 0; j < bytes.length; j++) {
            if (lower((byte) latin1.charAt(at + j)) != bytes[j]) {
                return false;
            }
        }
        return true;
    }

    /** The index of the byte that should occur least often in source text (ties: the first). */
    private static int rarest(byte[] b) {
        int best = 0;
        for (int i = 1; i < b.length; i++) {
            if (rank(b[i]) < rank(b[best])) {
                best = i;
            }
        }
        return best;
    }

    /**
     * ASCII bytes from rare to frequent in source code and prose (a rough order; what is not listed,
     * as the bytes of non-ASCII characters, counts as rarest).
     */
    private static final String RARE_TO_FREQUENT = "XQZJKVYWUGHBFMLDPONRAICTSEqzjxk`~^$%@?\\|&!#0123456789"
            + "<>[]{}+-:'\"vwybgfpmuh=;,.()_/*dlrcsnoiate\t\n ";

    private static int rank(byte c) {
        return RARE_TO_FREQUENT.indexOf(c);
    }

    private static byte lower(byte c) {
        return c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
    }

    private static int upper(byte c) {
        return c >= 'a' && c <= 'z' ? c - 32 : c;
    }

    @Override
    public String toString() {
        return (exact ? "exact " : "required ") + (ci ? "ci " : "") + Arrays.toString(bytes);
    }

    /** The text a pattern made only of plain characters and escaped punctuation stands for, else null. */
    static String pureLiteral(String pattern) {
        StringBuilder lit = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                if (i + 1 >= pattern.length() || !escapedLiteral(pattern.charAt(i + 1))) {
                    return null;
                }
                lit.append(pattern.charAt(++i));
            } else if (META.indexOf(c) >= 0) {
                return null;
            } else {
                lit.append(c);
            }
        }
        return lit.toString();
    }

    /** {@code \c} is the character itself for ASCII punctuation and space (letters and digits are constructs). */
    private static boolean escapedLiteral(char c) {
        return c < 0x80 && c > ' ' && !Character.isLetterOrDigit(c) || c == ' ';
    }

    /**
     * The longest run of literal characters that every match must contain, read from the top level
     * of the pattern; null when the pattern holds a construct this reading does not cover.
     */
    static String requiredLiteral(String p) {
        Runs runs = new Runs();
        int n = p.length();
        int i = 0;
        while (i < n) {
            char c = p.charAt(i);
            switch (c) {
                case '|':
                    return null; // an alternative need not contain anything
                case '\\': {
                    char d = i + 1 < n ? p.charAt(i + 1) : 0;
                    if (escapedLiteral(d)) {
                        i = runs.literal(p, i + 2, d);
                    } else if (d != 0 && SIMPLE_ESCAPES.indexOf(d) >= 0) {
                        runs.end();
                        i = skipQuantifier(p, i + 2);
                    } else {
                        return null; // hex, unicode, octal, property and quoting escapes, back references ...: not read here
                    }
                    continue;
                }
                case '[': {
                    int end = classEnd(p, i);
                    if (end < 0) {
                        return null;
                    }
                    runs.end();
                    i = skipQuantifier(p, end + 1);
                    continue;
                }
                case '(': {
                    if (i + 1 < n && p.charAt(i + 1) == '?') {
                        char k = i + 2 < n ? p.charAt(i + 2) : 0;
                        boolean behind = k == '<' && i + 3 < n && (p.charAt(i + 3) == '=' || p.charAt(i + 3) == '!');
                        if (k != ':' && k != '=' && k != '!' && k != '>' && !behind) {
                            return null; // inline flags or a named group
                        }
                    }
                    int end = groupEnd(p, i);
                    if (end < 0) {
                        return null;
                    }
                    runs.end();
                    i = skipQuantifier(p, end + 1);
                    continue;
                }
                case '.', '^', '$':
                    runs.end();
                    i = skipQuantifier(p, i + 1);
                    continue;
                case ')', ']', '}', '*', '+', '?', '{':
                    return null; // not where a well-formed reading expects it
                default:
                    if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(p.charAt(i + 1))) {
                        // a supplementary character: a quantifier after it applies to both halves
                        i = runs.literal(p, i + 2, p.substring(i, i + 2));
                    } else {
                        i = runs.literal(p, i + 1, c);
                    }
            }
        }
        runs.end();
        return runs.best.isEmpty() ? null : runs.best;
    }

    /** The runs of adjacent required characters seen so far, and the longest. */
    private static final class Runs {
        String best = "";
        final StringBuilder run = new StringBuilder();

        /** Takes a literal (just read, ending before {@code next}), minding a quantifier after it. */
        int literal(String p, int next, char c) {
            return literal(p, next, String.valueOf(c));
        }

        int literal(String p, int next, String c) {
            char q = next < p.length() ? p.charAt(next) : 0;
            if (q == '*' || q == '?' || q == '{') {
                end(); // optional (or counted): the run ends before it
                return skipQuantifier(p, next);
            }
            run.append(c);
            if (q == '+') {
                end(); // required once; what follows need not be adjacent to that one
                return skipQuantifier(p, next);
            }
            return next;
        }

        void end() {
            if (run.length() > best.length()) {
                best = run.toString();
            }
            run.setLength(0);
        }
    }

    /** Skips a quantifier (and its lazy/possessive suffix) at {@code i}, if there is one. */
    private static int skipQuantifier(String p, int i) {
        if (i >= p.length()) {
            return i;
        }
        char q = p.charAt(i);
        if (q == '{') {
            int close = p.indexOf('}', i);
            i = close < 0 ? p.length() : close + 1;
        } else if (q == '*' || q == '+' || q == '?') {
            i++;
        } else {
            return i;
        }
        if (i < p.length() && (p.charAt(i) == '?' || p.charAt(i) == '+')) {
            i++;
        }
        return i;
    }

    /** The index of the {@code ]} closing the class opened at {@code open}; -1 for forms not read here. */
    private static int classEnd(String p, int open) {
        int i = open + 1;
        if (i < p.length() && p.charAt(i) == '^') {
            i++;
        }
        if (i < p.length() && p.charAt(i) == ']') {
            return -1;
        }
        for (; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                return -1; // nested classes, unions, intersections
            } else if (c == ']') {
                return i;
            }
        }
        return -1;
    }

    /** The index of the {@code )} closing the group opened at {@code open}, or -1. */
    private static int groupEnd(String p, int open) {
        int depth = 0;
        for (int i = open; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                int end = classEnd(p, i);
                if (end < 0) {
                    return -1;
                }
                i = end;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the literal's UTF-8 bytes can be looked for directly: no line terminators (matches are
     * per line), no U+FFFD (what undecodable bytes become), no BOM (dropped from a file's start) and
     * no unpaired surrogate.
     */
    private static boolean encodable(String s) {
        if (s.isEmpty() || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0 || s.indexOf('\uFFFD') >= 0
                || s.indexOf('\uFEFF') >= 0) {
            return false;
        }
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s);
    }

    private static boolean ciSafe(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || Folds.OUTSIDE_ASCII[c]) {
                return false;
            }
        }
        return true;
    }

    /** The longest substring made of case-insensitively safe ASCII characters, or null. */
    private static String longestCiSafe(String s) {
        int bestFrom = 0;
        int bestLen = 0;
        int from = 0;
        for (int i = 0; i <= s.length(); i++) {
            if (i == s.length() || !ciSafe(s, i, i + 1)) {
                if (i - from > bestLen) {
                    bestFrom = from;
                    bestLen = i - from;
                }
                from = i + 1;
            }
        }
        return bestLen == 0 ? null : s.substring(bestFrom, bestFrom + bestLen);
    }

    /** Computed on the first case-insensitive pattern only (a pass over all code points). */
    private static final class Folds {
        static final boolean[] OUTSIDE_ASCII = foldsOutsideAscii();
    }

    /**
     * The ASCII characters that java.util.regex (CASE_INSENSITIVE | UNICODE_CASE) lets a non-ASCII
     * character match: it compares {@code toLowerCase(toUpperCase(c))}. Computed, not listed, so a
     * newer Unicode table cannot make the fast path wrong.
     */
    private static boolean[] foldsOutsideAscii() {
        boolean[] out = new boolean[128];
        for (int cp = 0x80; cp <= Character.MAX_CODE_POINT; cp++) {
            int f = Character.toLowerCase(Character.toUpperCase(cp));
            if (f < 0x80) {
                out[f] = true;
                out[Character.toUpperCase(f)] = true;
            }
        }
        return out;
    }
}
