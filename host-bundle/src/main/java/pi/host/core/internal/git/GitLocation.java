package pi.host.core.internal.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a repository is, and whether the host may work on it. git finds a repository from its
 * {@code .git}, which a repository's content can redirect: a {@code .git} file naming another
 * repository's git dir, {@code core.worktree} naming another work tree (a merge would then write the
 * committed files there). The host asks git where things are ({@code rev-parse}, under
 * {@link HardenedGit}) and accepts a project only when its work tree is the folder whose own
 * {@code .git} leads to the git dir: a {@code .git} directory, or a {@code .git} file of a linked
 * worktree its repository registered (only {@code git worktree add} writes that registration's
 * {@code gitdir} back-pointer).
 */
public final class GitLocation {

    /**
     * A repository as git located it, every path real.
     *
     * @param toplevel the work tree's root (the project folder or one above it)
     * @param gitDir the git dir of that work tree
     * @param commonDir the repository's common dir (the git dir, or the main repository's for a linked worktree)
     */
    public record Repository(Path toplevel, Path gitDir, Path commonDir) {
    }

    private GitLocation() {
    }

    /**
     * The repository the folder {@code project} (real) belongs to.
     *
     * @throws GitException when it is in no repository, or its {@code .git} or {@code core.worktree}
     *     leads elsewhere
     */
    public static Repository project(HardenedGit git, Path project) throws GitException {
        Repository r = locate(git, project, null);
        if (!project.startsWith(r.toplevel())) {
            throw new GitException("the repository's work tree is " + r.toplevel() + ", not a folder containing "
                    + project + " (core.worktree?); the host does not work on it");
        }
        Path dotGit = r.toplevel().resolve(".git");
        if (Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS) && real(dotGit).equals(r.gitDir())) {
            return r;
        }
        if (Files.isRegularFile(dotGit, LinkOption.NOFOLLOW_LINKS) && registered(r, dotGit)) {
            return r; // a linked worktree of a repository elsewhere, registered by that repository
        }
        throw new GitException("the repository's git dir is " + r.gitDir() + ", which " + dotGit
                + " does not lead to as a repository or a registered linked worktree would; the host does not"
                + " follow a .git that points elsewhere");
    }

    /**
     * Checks that the host's worktree {@code worktree} (real) is still what the host registered: git
     * finds its registration {@code adminDir} in the repository {@code commonDir}, and no other
     * repository (git looks no higher than the worktree's parent).
     */
    public static void worktree(HardenedGit git, Path worktree, Path adminDir, Path commonDir) throws GitException {
        Repository r = locate(git, worktree, worktree.getParent());
        if (!r.toplevel().equals(worktree) || !r.gitDir().equals(adminDir) || !r.commonDir().equals(commonDir)) {
            throw new GitException("the worktree " + worktree + " no longer is the one the host registered: git finds"
                    + " its git dir at " + r.gitDir() + " (registered " + adminDir + ") and its work tree at "
                    + r.toplevel() + "; the host does not use it");
        }
    }

    private static Repository locate(HardenedGit git, Path dir, Path ceiling) throws GitException {
        GitResult where = git.run(dir, List.of(), ceiling, null, HardenedGit.TIMEOUT,
                List.of("rev-parse", "--absolute-git-dir", "--git-common-dir", "--show-toplevel"));
        if (!where.ok()) {
            throw new GitException(dir + " is not in a git repository the host can use: " + where.reason());
        }
        String[] lines = where.stdout().strip().split("\n");
        if (lines.length < 3) {
            throw new GitException("git did not say where the repository of " + dir + " is");
        }
        return new Repository(real(dir.resolve(lines[2])), real(dir.resolve(lines[0])), real(dir.resolve(lines[1])));
    }

    /** True when {@code r.gitDir()} is {@code <commonDir>/worktrees/<name>} and its {@code gitdir} names {@code dotGit}. */
    private static boolean registered(Repository r, Path dotGit) {
        try {
            Path back = Path.of(Files.readString(r.gitDir().resolve("gitdir")).strip());
            return r.commonDir().resolve("worktrees").equals(r.gitDir().getParent())
                    && real(back).equals(real(dotGit));
        } catch (IOException | GitException | java.nio.file.InvalidPathException e) {
            return false; // no such file: not a linked worktree's git dir
        }
    }

    public static Path real(Path p) throws GitException {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new GitException("cannot resolve " + p + ": " + e.getMessage(), e);
        }
    }
}
