package pi.host.core.internal.policy;

import java.util.Locale;

/**
 * Repository control files (issue 13.3, beyond the spec): files whose change turns a later, approved
 * command into something else. A write to them is confirmed under ask and accept-edits (auto stays
 * auto), and a grant covers only the ones its card named.
 *
 * <ul>
 *   <li>anything under a {@code .git} component at any depth: the repository's config (aliases,
 *       {@code core.fsmonitor}, {@code core.sshCommand}, filter and diff drivers), its hooks, and a
 *       {@code .git} file that points git at another directory;</li>
 *   <li>git's work-tree configuration: {@code .gitattributes} (selects filter and diff drivers, i.e.
 *       programs, for paths) and {@code .gitmodules} (submodule URLs and paths that {@code git
 *       submodule} acts on), wherever they are; {@code .gitignore} and {@code .mailmap} only change
 *       what git shows, so they are ordinary files;</li>
 *   <li>the project's {@code .pi/} configuration at the workspace root (subagent definitions, skills),
 *       except the host-written artifacts under {@code .pi/plan/} and {@code .pi/goal/}.</li>
 * </ul>
 *
 * Names are compared the way file systems that fold them see them: ignoring case, ignoring the
 * code points HFS+ drops ({@code .g\u200Cit}), trailing dots and spaces (NTFS), and {@code git~1}
 * (NTFS short name), so no spelling of {@code .git} passes as another file.
 */
public final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /**
     * True when {@code relative} (a location below the workspace or scratch root, its names separated
     * by {@code /}) is a repository control file or lies under one.
     *
     * @param workspaceRoot true when {@code relative} is below the workspace root (where {@code .pi/} counts)
     */
    public static boolean isControlFile(String relative, boolean workspaceRoot) {
        int start = 0;
        boolean first = true;
        int length = relative.length();
        while (start <= length) {
            int end = relative.indexOf('/', start);
            if (end < 0) {
                end = length;
            }
            if (end > start) {
                String name = fold(relative.substring(start, end));
                if (name.equals(".git") || name.equals("git~1")) {
                    return true;
                }
                boolean last = end == length;
                if (last && (name.equals(".gitattributes") || name.equals(".gitmodules"))) {
                    return true;
                }
                if (first && workspaceRoot && name.equals(".pi")) {
                    return !hostArtifact(relative, end);
                }
                first = false;
            }
            start = end + 1;
        }
        return false;
    }

    /** {@code .pi/plan/...} and {@code .pi/goal/...}: written by SubmitPlan/SubmitGoal, not configuration. */
    private static boolean hostArtifact(String relative, int afterPi) {
        int next = relative.indexOf('/', afterPi + 1);
        if (afterPi >= relative.length() || next == afterPi + 1) {
            return false; // ".pi" itself, or ".pi//"
        }
        String second = fold(relative.substring(afterPi + 1, next < 0 ? relative.length() : next));
        // the directory itself is host state too; only files below it are artifacts
        return next > 0 && (second.equals("plan") || second.equals("goal"));
    }

    /** A name as a folding file system compares it. */
    static String fold(String name) {
        StringBuilder b = null;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (ignorable(c)) {
                if (b == null) {
                    b = new StringBuilder(name.length()).append(name, 0, i);
                }
            } else if (b != null) {
                b.append(c);
            }
        }
        String s = b == null ? name : b.toString();
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '.' || s.charAt(end - 1) == ' ')) {
            end--;
        }
        return s.substring(0, end).toLowerCase(Locale.ROOT);
    }

    /** The code points HFS+ ignores in names (as git's is_hfs_dotgit does). */
    private static boolean ignorable(char c) {
        return c >= '\u200C' && c <= '\u200F' || c >= '\u202A' && c <= '\u202E' || c >= '\u206A' && c <= '\u206F'
                || c == '\uFEFF';
    }
}
