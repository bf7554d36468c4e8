package org.example.gitinfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * git as this plugin runs it. A repository is content the agent did not write and the user may not
 * have read (a clone, an unpacked archive, a folder another tool prepared): its {@code .git/config},
 * the files it includes, {@code .gitattributes} and its hooks can name programs that plain
 * {@code git status} or {@code git log} runs, and a {@code .git} file or {@code core.worktree} can
 * point git at another repository or at files outside the workspace. Here, before each command:
 * <ol>
 * <li>git says where the repository is (git dir, common dir, work tree, alternate object stores),
 * and a repository any part of which lies outside the workspace is refused (a linked worktree of a
 * repository elsewhere only when that repository registered it);</li>
 * <li>git lists its configuration, and every filter driver it names is switched off;</li>
 * <li>the command runs with {@link GitEnvironment}: no hooks, fsmonitor, pager, signature programs,
 * transports, submodule recursion or inherited {@code GIT_*} variables. Diffs are asked for with
 * {@code --no-ext-diff --no-textconv} by the caller.</li>
 * </ol>
 * Each of the three runs already has the fixed settings, so none of them runs a program either.
 */
final class HardenedGit {

    /** The repository lies (partly) outside the workspace; nothing was read from it. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private final GitRunner git;

    HardenedGit(GitRunner git) {
        this.git = git;
    }

    /** Runs {@code args} in the workspace repository; a failed look-up is returned as that run's outcome. */
    GitRunner.Outcome run(pi.host.api.ToolCall call, List<String> args)
            throws IOException, InterruptedException, Refused {
        List<GitEnvironment.Setting> settings = new ArrayList<>(GitEnvironment.FIXED);
        GitRunner.Outcome where = git.run(call, List.of("rev-parse", "--absolute-git-dir", "--git-common-dir",
                "--show-toplevel"), settings);
        if (!finished(where)) {
            return where; // not a repository (or a refused bare one): git's own message
        }
        Path root = real(call.workspaceRoot(), call.workspaceRoot());
        refuseOutside(root, where.stdout());
        GitRunner.Outcome objects = git.run(call, List.of("count-objects", "-v"), settings);
        if (!finished(objects)) {
            return objects;
        }
        for (String line : objects.stdout().split("\n")) {
            if (line.startsWith("alternate: ")) { // every store git reads objects from, alternates' alternates too
                refuseOutside(root, "alternate object store", real(root, Path.of(line.substring(11).strip())));
            }
        }
        GitRunner.Outcome config = git.run(call, List.of("config", "--null", "--list"), settings);
        if (!finished(config)) {
            return config;
        }
        settings.addAll(GitEnvironment.withoutFilters(config.stdout()));
        return git.run(call, args, settings);
    }

    private static boolean finished(GitRunner.Outcome o) {
        return o.exitCode() == 0 && !o.timedOut() && !o.cancelled();
    }

    /**
     * The work tree must resolve inside the workspace, and so must the git dir and the common dir,
     * unless the workspace is a linked worktree its repository registered ({@code git worktree add}):
     * then the git dir is that repository's {@code worktrees/<name>}, whose {@code gitdir} file names
     * this workspace's {@code .git}. Nothing in the workspace can make another repository say that.
     */
    private static void refuseOutside(Path root, String revParse) throws Refused {
        String[] lines = revParse.strip().split("\n");
        if (lines.length < 3) {
            throw new Refused("git did not say where the repository is; git-info showed nothing");
        }
        Path gitDir = real(root, root.resolve(lines[0]));
        Path common = real(root, root.resolve(lines[1]));
        refuseOutside(root, "work tree", real(root, root.resolve(lines[2])));
        if (registeredWorktree(root, gitDir, common)) {
            return;
        }
        refuseOutside(root, "git dir", gitDir);
        refuseOutside(root, "common git dir", common);
    }

    private static boolean registeredWorktree(Path root, Path gitDir, Path common) {
        try {
            Path back = Path.of(Files.readString(gitDir.resolve("gitdir")).strip());
            return common.resolve("worktrees").equals(gitDir.getParent())
                    && back.toRealPath().equals(root.resolve(".git").toRealPath());
        } catch (IOException | java.nio.file.InvalidPathException e) {
            return false; // no such file: not a linked worktree's git dir
        }
    }

    private static void refuseOutside(Path root, String what, Path where) throws Refused {
        if (!where.startsWith(root)) {
            throw new Refused("the repository's " + what + " is " + where + ", outside the workspace " + root
                    + "; git-info reads only a repository inside the workspace and showed nothing of this one");
        }
    }

    /** The path with every link resolved (a link inside the workspace may lead out of it). */
    private static Path real(Path workspace, Path p) throws Refused {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new Refused("cannot resolve " + p + " (" + e.getMessage() + "); nothing was read from " + workspace);
        }
    }
}
