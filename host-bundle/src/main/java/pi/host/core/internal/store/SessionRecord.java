package pi.host.core.internal.store;

/**
 * A session as stored.
 *
 * @param id the session id
 * @param projectRoot the bound project folder, or null for a temporary session
 * @param workspaceRoot the canonical workspace root (a temporary session's scratch dir)
 * @param isolated true for a session that works in its own worktree
 * @param mode the operating mode word (agent, plan, goal)
 * @param permissionMode the stored permission mode word (inherit, ask, accept-edits, auto)
 * @param unattended true for scheduled/unattended runs
 * @param createdAt epoch millis
 * @param updatedAt epoch millis
 * @param archivedAt epoch millis, or null while not archived
 */
public record SessionRecord(String id, String projectRoot, String workspaceRoot, boolean isolated, String mode,
        String permissionMode, boolean unattended, long createdAt, long updatedAt, Long archivedAt) {

    public boolean temporary() {
        return projectRoot == null;
    }

    public boolean archived() {
        return archivedAt != null;
    }
}
