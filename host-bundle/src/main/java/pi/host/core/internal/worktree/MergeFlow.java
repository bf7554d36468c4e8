package pi.host.core.internal.worktree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import pi.host.api.ErrorCode;
import pi.host.core.internal.git.GitException;
import pi.host.core.internal.git.GitResult;
import pi.host.core.internal.git.HardenedGit;

/**
 * Merging a worktree into what it branched from (spec §4e "Merge into project", §10.2 a delegate's
 * completion), one algorithm for both: the worktree's pending edits are committed (a checkpoint), the
 * target's branch is merged into the worktree (the sync: conflicts stay there, in the worktree, their
 * files named), then the target is fast-forwarded to the worktree and nothing else: the target never
 * gets a merge commit or a conflict. Every git command through {@link HardenedGit}.
 */
final class MergeFlow {

    /** Most commits a preview lists (the count is exact). */
    static final int MAX_COMMITS = 200;

    /**
     * What a merge would do, and the state it was computed from (a merge with its token runs only while
     * the state is still this).
     */
    record State(String targetHead, String targetBranch, String sourceHead, String sourceTree) {
    }

    private final HardenedGit.Bound source;
    private final HardenedGit.Bound target;
    private final Path scratch;

    /**
     * @param source the worktree being merged (bound with its parent as ceiling)
     * @param target the checkout it merges into (the project's work tree, or the session's worktree)
     * @param scratch a host folder for a scratch index
     */
    MergeFlow(HardenedGit.Bound source, HardenedGit.Bound target, Path scratch) {
        this.source = source;
        this.target = target;
        this.scratch = scratch;
    }

    /** The state now: both heads, the target's branch, and the tree of the worktree as it is (pending edits included). */
    State state() throws GitException, IOException {
        String targetHead = head(target);
        String branch = target.run("symbolic-ref", "-q", "--short", "HEAD").stdout().strip();
        String sourceHead = head(source);
        Path index = Files.createTempFile(scratch, ".pi-index-", "");
        try {
            // the worktree's content as a tree, on a scratch index: its own index and files are untouched
            source.withIndex(index, "read-tree", sourceHead);
            GitResult added = source.withIndex(index, "add", "-A");
            if (!added.ok()) {
                throw new GitException("git add failed in " + source.dir() + ": " + added.reason());
            }
            GitResult tree = source.withIndex(index, "write-tree");
            if (!tree.ok()) {
                throw new GitException("git write-tree failed: " + tree.reason());
            }
            return new State(targetHead, branch, sourceHead, tree.stdout().strip());
        } finally {
            Files.deleteIfExists(index);
        }
    }

    /** The preview of a merge from {@code state}: commits, files, whether a sync is needed, conflicts in progress. */
    Map<String, Object> preview(State state) throws GitException {
        Map<String, Object> out = new LinkedHashMap<>();
        String range = state.targetHead() + ".." + state.sourceHead();
        List<Map<String, String>> commits = new ArrayList<>();
        GitResult log = source.run("log", "-z", "--max-count=" + MAX_COMMITS, "--format=%H%x1f%s", range);
        for (String entry : log.nulSeparated()) {
            String[] parts = entry.strip().split("\u001f", 2);
            commits.add(Map.of("sha", parts[0], "subject", parts.length > 1 ? parts[1] : ""));
        }
        String base = source.ok("merge-base", state.targetHead(), state.sourceHead()).strip();
        List<Map<String, String>> files = new ArrayList<>();
        List<String> status = source.run("diff", "--name-status", "-z", "--no-renames", base, state.sourceTree())
                .nulSeparated();
        for (int i = 0; i + 1 < status.size(); i += 2) {
            files.add(Map.of("path", status.get(i + 1), "status", word(status.get(i))));
        }
        List<String> conflicts = conflicts();
        boolean pending = !state.sourceTree().equals(source.ok("rev-parse", state.sourceHead() + "^{tree}").strip());
        out.put("targetBranch", state.targetBranch().isEmpty() ? null : state.targetBranch());
        out.put("targetHead", state.targetHead());
        out.put("worktreeHead", state.sourceHead());
        out.put("commits", commits);
        out.put("commitCount", Integer.parseInt(source.ok("rev-list", "--count", range).strip()));
        out.put("pendingChanges", pending);
        out.put("behind", Integer.parseInt(source.ok("rev-list", "--count",
                state.sourceHead() + ".." + state.targetHead()).strip()));
        out.put("files", files);
        out.put("conflicts", conflicts);
        out.put("canMerge", conflicts.isEmpty() && !files.isEmpty());
        return out;
    }

    /**
     * Merges from {@code expected}, which must still be the state: checkpoint, sync, fast-forward.
     *
     * @return {@code status: merged} with the target's new head, or {@code status: conflict} with the files
     *     (the sync's merge stays in progress in the worktree); {@code up-to-date} when there is nothing to bring
     * @throws WorktreeException WORKTREE_STALE when the state moved, WORKTREE_MERGE_FAILED when git refused
     */
    Map<String, Object> merge(State expected, String checkpointMessage) throws GitException, IOException,
            WorktreeException {
        State now = state();
        if (expected != null && !now.equals(expected)) {
            throw new WorktreeException(ErrorCode.WORKTREE_STALE, "the worktree or its target changed since the"
                    + " preview (" + describe(expected, now) + "); preview again");
        }
        List<String> inProgress = conflicts();
        if (!inProgress.isEmpty()) {
            return conflict(inProgress, "the worktree still has conflicts to resolve");
        }
        if (!now.sourceTree().equals(source.ok("rev-parse", now.sourceHead() + "^{tree}").strip())) {
            checkpoint(source, checkpointMessage);
        }
        String sourceHead = head(source);
        if (!source.run("merge-base", "--is-ancestor", now.targetHead(), sourceHead).ok()) {
            GitResult sync = source.run("merge", "--no-edit", "-m", "pi-host: sync "
                    + (now.targetBranch().isEmpty() ? now.targetHead() : now.targetBranch()) + " into the worktree",
                    now.targetHead());
            if (!sync.ok()) {
                List<String> files = conflicts();
                if (!files.isEmpty()) {
                    return conflict(files, "syncing the target into the worktree stopped at conflicts");
                }
                source.run("merge", "--abort");
                throw new WorktreeException(ErrorCode.WORKTREE_MERGE_FAILED, "git could not sync the target into"
                        + " the worktree: " + sync.reason());
            }
            sourceHead = head(source);
        }
        if (sourceHead.equals(now.targetHead())) {
            return Map.of("status", "up-to-date", "targetHead", now.targetHead());
        }
        GitResult ff = target.run("merge", "--ff-only", "--no-edit", sourceHead);
        if (!ff.ok()) {
            throw new WorktreeException(ErrorCode.WORKTREE_MERGE_FAILED, "the target cannot be fast-forwarded: "
                    + ff.reason() + " (its own uncommitted changes would be overwritten, or it moved); the worktree"
                    + " keeps the synced work");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "merged");
        out.put("targetHead", head(target));
        out.put("commitCount", Integer.parseInt(source.ok("rev-list", "--count", now.targetHead() + ".." + sourceHead)
                .strip()));
        return out;
    }

    /** Commits everything pending in {@code dir} (its own index), without hooks or signing; nothing when clean. */
    static void checkpoint(HardenedGit.Bound dir, String message) throws GitException {
        dir.ok("add", "-A");
        if (!dir.run("diff", "--cached", "--quiet").ok()) {
            dir.ok("commit", "-q", "--no-verify", "-m", message);
        }
    }

    /** Paths with unmerged index entries (a merge stopped at conflicts). */
    List<String> conflicts() throws GitException {
        return source.run("diff", "--name-only", "--diff-filter=U", "-z").nulSeparated().stream().distinct().toList();
    }

    private static Map<String, Object> conflict(List<String> files, String message) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", "conflict");
        out.put("conflicts", files);
        out.put("message", message + ": " + String.join(", ", files) + "; resolve them in the worktree (the merge is"
                + " in progress there), then merge again");
        return out;
    }

    private static String head(HardenedGit.Bound git) throws GitException {
        String h = git.run("rev-parse", "--verify", "-q", "HEAD^{commit}").stdout().strip();
        if (h.isEmpty()) {
            throw new GitException(git.dir() + " has no commit");
        }
        return h;
    }

    private static String word(String letter) {
        switch (letter.isEmpty() ? ' ' : letter.charAt(0)) {
            case 'A':
                return "added";
            case 'D':
                return "deleted";
            case 'T':
                return "type-changed";
            default:
                return "modified";
        }
    }

    private static String describe(State was, State now) {
        List<String> moved = new ArrayList<>();
        if (!Objects.equals(was.targetHead(), now.targetHead()) || !Objects.equals(was.targetBranch(), now.targetBranch())) {
            moved.add("the target moved");
        }
        if (!Objects.equals(was.sourceHead(), now.sourceHead())) {
            moved.add("the worktree has new commits");
        }
        if (!Objects.equals(was.sourceTree(), now.sourceTree())) {
            moved.add("the worktree's files changed");
        }
        return String.join(", ", moved);
    }
}
