package pi.host.core.internal.store;

import java.nio.file.Path;

/**
 * A git worktree the host made (issue 17): an isolated session's, or a write delegate's inside one.
 *
 * @param id the session id for the session's own worktree, the delegation id for a delegate's
 * @param sessionId the owning session
 * @param delegationId null for the session's own worktree
 * @param repository the project repository's work tree root (real)
 * @param subdir the project folder relative to {@code repository} ({@code ""} when they are one)
 * @param path the worktree's folder (real, below {@code <data_dir>/worktrees/})
 * @param branch its branch ({@code pi-desktop/<id>})
 * @param adminDir its registration in the repository ({@code <common>/worktrees/<name>}, real)
 * @param commonDir the repository's common git dir (real)
 * @param base the commit it was created from
 * @param port the first port of its PI_PORT block, or null (delegates, or none was free)
 * @param setup the setup command's outcome as JSON, or null when none ran
 */
public record WorktreeRecord(String id, String sessionId, String delegationId, String repository, String subdir,
        String path, String branch, String adminDir, String commonDir, String base, Integer port, String setup,
        long createdAt) {

    /** The folder that replaces the project as the workspace root: the project's place in the worktree. */
    public Path workspaceRoot() {
        return subdir.isEmpty() ? Path.of(path) : Path.of(path).resolve(subdir);
    }

    public WorktreeRecord withSetup(String outcome) {
        return new WorktreeRecord(id, sessionId, delegationId, repository, subdir, path, branch, adminDir, commonDir,
                base, port, outcome, createdAt);
    }
}
