package pi.host.core.internal.git;

/**
 * What one git command did.
 *
 * @param exitCode its exit status (-1 when it was killed at its timeout)
 * @param stdout its standard output, bounded ({@link HardenedGit#MAX_STDOUT} bytes, then cut)
 * @param stderr its standard error, bounded
 * @param timedOut true when it ran out of time and its tree was killed
 */
public record GitResult(int exitCode, String stdout, String stderr, boolean timedOut) {

    public boolean ok() {
        return exitCode == 0 && !timedOut;
    }

    /** stdout split at NUL bytes (for {@code -z} output), without a trailing empty entry. */
    public java.util.List<String> nulSeparated() {
        java.util.List<String> out = new java.util.ArrayList<>();
        int start = 0;
        for (int i = 0; i < stdout.length(); i++) {
            if (stdout.charAt(i) == '\0') {
                out.add(stdout.substring(start, i));
                start = i + 1;
            }
        }
        if (start < stdout.length()) {
            out.add(stdout.substring(start));
        }
        return out;
    }

    /** The first line of stderr, or of stdout when stderr is empty: git's reason, for a message. */
    public String reason() {
        String s = stderr.isBlank() ? stdout : stderr;
        s = s.strip();
        int nl = s.indexOf('\n');
        String first = nl < 0 ? s : s.substring(0, nl);
        return timedOut ? "git timed out" : first.length() > 500 ? first.substring(0, 500) + "…" : first;
    }
}
