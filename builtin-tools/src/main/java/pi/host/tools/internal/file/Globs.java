package pi.host.tools.internal.file;

import java.util.regex.Pattern;

/**
 * Glob patterns as ripgrep's {@code --glob} reads them (Glob's pattern, Grep's include; ignore
 * files are jgit's, see {@link Walker}), translated to java.util.regex: {@code *} and {@code ?} never cross a {@code /}, {@code **} spans directories
 * when it is a whole path segment, {@code [...]} is a class ({@code [!...]} negated), {@code {a,b}}
 * an alternation and {@code \} escapes the next character. A pattern without a {@code /} (other
 * than a trailing one) matches a base name at any depth; one with a {@code /} is anchored at its
 * base directory.
 */
final class Globs {

    private Globs() {
    }

    /** The regex of a whole relative path ({@code /}-separated) that {@code glob} matches. */
    static Pattern path(String glob) {
        String g = glob;
        boolean anchored = g.indexOf('/') >= 0 && g.indexOf('/') < g.length() - 1 || g.startsWith("/");
        if (g.startsWith("/")) {
            g = g.substring(1);
        }
        if (g.endsWith("/")) {
            g = g.substring(0, g.length() - 1);
        }
        return Pattern.compile((anchored ? "" : "(?:.*/)?") + regex(g), Pattern.DOTALL);
    }

    /** The regex of a single base name that {@code glob} matches. */
    static Pattern name(String glob) {
        return Pattern.compile(regex(glob), Pattern.DOTALL);
    }

    static String regex(String g) {
        StringBuilder r = new StringBuilder();
        int n = g.length();
        int braces = 0;
        for (int i = 0; i < n; i++) {
            char c = g.charAt(i);
            switch (c) {
                case '*' -> {
                    if (i + 1 < n && g.charAt(i + 1) == '*') {
                        boolean startSeg = i == 0 || g.charAt(i - 1) == '/';
                        boolean endSeg = i + 2 == n || g.charAt(i + 2) == '/';
                        if (startSeg && endSeg) {
                            if (i + 2 == n) {
                                r.append(".*");
                                i += 1;
                            } else {
                                r.append("(?:.*/)?");
                                i += 2;
                            }
                            continue;
                        }
                        r.append("[^/]*");
                        i += 1;
                    } else {
                        r.append("[^/]*");
                    }
                }
                case '?' -> r.append("[^/]");
                case '[' -> {
                    int j = i + 1;
                    if (j < n && (g.charAt(j) == '!' || g.charAt(j) == '^')) {
                        j++;
                    }
                    if (j < n && g.charAt(j) == ']') {
                        j++;
                    }
                    while (j < n && g.charAt(j) != ']') {
                        j++;
                    }
                    if (j >= n) {
                        r.append("\\[");
                    } else {
                        String body = g.substring(i + 1, j);
                        boolean neg = body.startsWith("!") || body.startsWith("^");
                        if (neg) {
                            body = body.substring(1);
                        }
                        r.append('[').append(neg ? "^/" : "");
                        for (char b : body.toCharArray()) {
                            r.append(b == '\\' || b == '[' || b == '&' || b == '^' ? "\\" + b : String.valueOf(b));
                        }
                        r.append(']');
                        i = j;
                    }
                }
                case '{' -> {
                    braces++;
                    r.append("(?:");
                }
                case '}' -> {
                    if (braces > 0) {
                        braces--;
                        r.append(')');
                    } else {
                        r.append("\\}");
                    }
                }
                case ',' -> r.append(braces > 0 ? "|" : ",");
                case '\\' -> {
                    if (i + 1 < n) {
                        i++;
                        r.append(Pattern.quote(String.valueOf(g.charAt(i))));
                    } else {
                        r.append("\\\\");
                    }
                }
                default -> {
                    if ("().+|^$".indexOf(c) >= 0) {
                        r.append('\\');
                    }
                    r.append(c);
                }
            }
        }
        while (braces-- > 0) {
            r.append(')');
        }
        return r.toString();
    }
}
