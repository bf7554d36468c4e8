package pi.host.core.internal.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * The host's own state is never a tool target (issue 13.2): the data dir holds the database, the
 * audit journal, the plugins folder, {@code mcp.json}, subagent definitions, skills and settings, so a
 * tool that could write there could grant itself anything. Every location a call names is checked
 * here on its canonical form (links followed, {@code ..} folded, so every spelling lands on the same
 * path) before any card: inside the data dir and outside the calling session's own roots there means
 * a hard deny, in every mode and whatever grant exists.
 *
 * <p>The session's own roots inside the data dir are passed in by the caller: today its scratch dir;
 * its visualization dir and an isolated session's worktree under {@code <data_dir>/worktrees/} join
 * that list when they exist (issue 17). Another session's scratch is host state for this session.
 *
 * <p>On a case-insensitive file system (probed once on the data dir itself) the comparison ignores
 * case, so {@code /Users/me/Library/PI-HOST} is the data dir too; on a case-sensitive one a case
 * variant is another location and is judged as such.
 */
public final class HostState {

    private final Path dataDir;
    private final boolean ignoreCase;

    /**
     * @param dataDir the data dir ({@code pi.host.data}); resolved to its real location now
     * @throws IOException when the data dir does not exist: the host cannot guard what it cannot locate
     */
    public HostState(Path dataDir) throws IOException {
        this.dataDir = dataDir.toRealPath();
        this.ignoreCase = caseInsensitive(this.dataDir);
    }

    /** The real data dir. */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * True when {@code canonical} is inside the data dir and inside none of {@code ownRoots}.
     *
     * @param canonical an absolute location with every link resolved
     * @param ownRoots the calling session's roots inside the data dir, canonical
     */
    public boolean isHostState(Path canonical, List<Path> ownRoots) {
        if (!within(canonical, dataDir)) {
            return false;
        }
        for (Path own : ownRoots) {
            if (within(canonical, own)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The directories a walk (Glob, Grep) of {@code walkRoot} must neither enter nor list: the data dir
     * when it lies below the walked directory. A walk that starts inside one of the session's own roots
     * (its scratch) is already inside the data dir and has nothing below it to avoid.
     */
    public List<Path> walkExclusions(Path walkRoot) {
        return !within(walkRoot, dataDir) && within(dataDir, walkRoot) ? List.of(dataDir) : List.of();
    }

    /** The message of a refusal: which argument, and that nothing ran. */
    public String refusal(String toolName, String raw) {
        return toolName + " may not use '" + raw + "': it is inside the host's own data directory (" + dataDir
                + "), which no tool may read or write, in any mode and with any grant; nothing ran";
    }

    private boolean within(Path p, Path root) {
        if (!ignoreCase) {
            return p.startsWith(root);
        }
        String s = p.toString();
        String r = root.toString();
        if (!s.regionMatches(true, 0, r, 0, r.length())) {
            return false;
        }
        String sep = p.getFileSystem().getSeparator();
        return s.length() == r.length() || r.endsWith(sep) || s.startsWith(sep, r.length());
    }

    /** True when the data dir can also be reached with its letters' case swapped (and is the same directory). */
    static boolean caseInsensitive(Path real) {
        String s = real.toString();
        String swapped = swapCase(s);
        if (swapped.equals(s)) {
            return false; // no letters to tell by: compare exactly
        }
        Path other = real.getFileSystem().getPath(swapped);
        try {
            return Files.exists(other, LinkOption.NOFOLLOW_LINKS) && Files.isSameFile(real, other);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static String swapCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
        }
        return b.toString();
    }

    /** For tests: a guard with the case rule given rather than probed. */
    static HostState of(Path realDataDir, boolean ignoreCase) {
        return new HostState(realDataDir, ignoreCase);
    }

    private HostState(Path realDataDir, boolean ignoreCase) {
        this.dataDir = realDataDir;
        this.ignoreCase = ignoreCase;
    }

    @Override
    public String toString() {
        return "HostState[" + dataDir + (ignoreCase ? ", case-insensitive" : "") + "]";
    }
}
