package pi.host.core.internal.worktree;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import pi.host.core.internal.git.GitException;
import pi.host.core.internal.git.GitResult;
import pi.host.core.internal.git.HardenedGit;
import pi.host.core.internal.session.NoFollowTree;

/**
 * {@code .worktreeinclude} (spec §4e): the git-ignored files of the project that a new worktree gets a
 * copy of (a local {@code .env}, say), named by gitignore patterns in that file at the repository's root.
 * git does the matching: the untracked files its ignore rules ignore, intersected with the untracked
 * files the include file's patterns match ({@code ls-files --exclude-from}). Each is copied without
 * following a link anywhere on its path ({@link NoFollowTree#copyFile}); a link is left out and named.
 */
final class WorktreeInclude {

    static final String FILE = ".worktreeinclude";
    /** The include file is read only up to this size. */
    static final long MAX_PATTERNS_BYTES = 64 * 1024;
    /** At most this many files and bytes are copied; the rest is named as left out. */
    static final int MAX_FILES = 10_000;
    static final long MAX_BYTES = 512L * 1024 * 1024;

    private WorktreeInclude() {
    }

    /**
     * Copies the included ignored files of the repository {@code repository} into {@code worktree}.
     *
     * @param scratch a folder of the host's for the copy of the patterns (git reads its file by name)
     * @return {@code copied} (paths) and {@code skipped} (path: why); empty when there is no include file
     */
    static Map<String, Object> copy(HardenedGit.Bound repository, Path worktree, Path scratch)
            throws IOException, GitException {
        Path root = repository.dir();
        Path copyOfPatterns = scratch.resolve(".include-" + Long.toHexString(System.nanoTime()));
        // the include file is read without following a link (a link to elsewhere names no patterns of the project's)
        long size = NoFollowTree.copyFile(root, FILE, scratch, MAX_PATTERNS_BYTES);
        if (size < 0) {
            return Map.of();
        }
        Files.move(scratch.resolve(FILE), copyOfPatterns);
        List<String> copied = new ArrayList<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        try {
            Set<String> ignored = new HashSet<>(list(repository, "--exclude-standard"));
            long bytes = 0;
            for (String path : list(repository, "--exclude-from=" + copyOfPatterns)) {
                if (!ignored.contains(path)) {
                    continue; // tracked content comes with the checkout; untracked but not ignored is not asked for
                }
                if (copied.size() >= MAX_FILES || bytes >= MAX_BYTES) {
                    skipped.put(path, "over the copy's bounds (" + MAX_FILES + " files, " + MAX_BYTES + " bytes)");
                    continue;
                }
                long n = NoFollowTree.copyFile(root, path, worktree, MAX_BYTES - bytes);
                if (n < 0) {
                    skipped.put(path, "a link on its path, not a regular file, or too large: not followed");
                } else {
                    copied.add(path);
                    bytes += n;
                }
            }
        } finally {
            Files.deleteIfExists(copyOfPatterns);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("copied", copied);
        out.put("skipped", skipped);
        return out;
    }

    private static List<String> list(HardenedGit.Bound git, String exclude) throws GitException {
        GitResult r = git.run("ls-files", "-z", "--others", "--ignored", exclude);
        if (!r.ok()) {
            throw new GitException("git ls-files failed: " + r.reason());
        }
        return r.nulSeparated();
    }
}
