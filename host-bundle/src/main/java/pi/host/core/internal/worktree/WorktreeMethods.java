package pi.host.core.internal.worktree;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.execute.AdmissionQueue;
import pi.host.core.internal.git.GitException;
import pi.host.core.internal.git.GitLocation;
import pi.host.core.internal.git.HardenedGit;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.session.SessionListener;
import pi.host.core.internal.session.SessionMethods;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.WorktreeRecord;

/**
 * {@code worktree.mergePreview}, {@code worktree.merge} (the user's "merge into project", spec §4e) and
 * {@code delegation.complete} (a write delegate's run ended, spec §10.2). Each runs under the session's
 * mutation permit, so no Write, Edit or Bash of the session runs meanwhile. A preview's token names the
 * exact state it showed (both heads, the project's branch, the worktree's content); a merge whose token
 * is unknown or whose state moved is refused ({@code WORKTREE_STALE}).
 */
@Component(service = WorktreeMethods.class)
public final class WorktreeMethods implements SessionListener {

    private record Preview(String token, MergeFlow.State state) {
    }

    private final SessionService sessions;
    private final WorktreeService worktrees;
    private final AdmissionQueue admission;
    private final SecureRandom random = new SecureRandom();
    /** The last preview of each session (a new preview makes the older token stale). */
    private final Map<String, Preview> previews = new ConcurrentHashMap<>();

    @Activate
    public WorktreeMethods(@Reference SessionService sessions, @Reference WorktreeService worktrees,
            @Reference AdmissionQueue admission) {
        this.sessions = sessions;
        this.worktrees = worktrees;
        this.admission = admission;
        sessions.addListener(this);
    }

    @Deactivate
    private void deactivate() {
        sessions.removeListener(this);
    }

    public void register(MethodTable table) {
        table.put("worktree.mergePreview", (p, c) -> preview(p.requireString("sessionId")));
        table.put("worktree.merge", (p, c) -> merge(p.requireString("sessionId"), p.requireString("previewToken")));
        table.put("delegation.complete", (p, c) -> complete(p.requireString("sessionId"),
                p.requireString("delegationId"), p.optString("outcome").orElse("completed")));
    }

    Map<String, Object> preview(String sessionId) throws RpcException, InterruptedException {
        WorktreeRecord w = sessionWorktree(sessionId);
        try (AdmissionQueue.Ticket permit = admission.admit(sessionId, true, List.of())) {
            MergeFlow flow = intoProject(w);
            MergeFlow.State state = flow.state();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("sessionId", sessionId);
            out.put("projectRoot", w.repository());
            out.put("branch", w.branch());
            out.putAll(flow.preview(state));
            String token = HexFormat.of().formatHex(bytes());
            previews.put(sessionId, new Preview(token, state));
            out.put("previewToken", token);
            return out;
        } catch (WorktreeException e) {
            throw RpcException.invalidParams(e.code(), e.getMessage());
        } catch (GitException | IOException e) {
            throw RpcException.invalidParams(ErrorCode.WORKTREE_MERGE_FAILED, "the preview failed: " + e.getMessage());
        }
    }

    Map<String, Object> merge(String sessionId, String token) throws RpcException, InterruptedException {
        WorktreeRecord w = sessionWorktree(sessionId);
        try (AdmissionQueue.Ticket permit = admission.admit(sessionId, true, List.of())) {
            Preview shown = previews.get(sessionId);
            if (shown == null || !java.security.MessageDigest.isEqual(shown.token().getBytes(), token.getBytes())) {
                throw new WorktreeException(ErrorCode.WORKTREE_STALE, "unknown or superseded preview token: preview"
                        + " the merge again (worktree.mergePreview)");
            }
            previews.remove(sessionId);
            Map<String, Object> out = new LinkedHashMap<>(intoProject(w).merge(shown.state(),
                    "pi-host: checkpoint of session " + sessionId + " before the merge into the project"));
            out.put("sessionId", sessionId);
            out.put("branch", w.branch());
            return out;
        } catch (WorktreeException e) {
            throw RpcException.invalidParams(e.code(), e.getMessage());
        } catch (GitException | IOException e) {
            throw RpcException.invalidParams(ErrorCode.WORKTREE_MERGE_FAILED, "the merge failed: " + e.getMessage());
        }
    }

    Map<String, Object> complete(String sessionId, String delegationId, String outcome)
            throws RpcException, InterruptedException {
        SessionRecord session = SessionMethods.require(sessions, sessionId);
        if (!List.of("completed", "failed", "stopped").contains(outcome)) {
            throw RpcException.invalidParams("outcome must be completed, failed or stopped");
        }
        WorktreeRecord d = worktrees.ofDelegation(session.id(), delegationId).orElse(null);
        if (d == null) {
            return Map.of("status", "shared", "delegationId", delegationId, "report",
                    "The delegate worked in the session's own root; there is nothing to merge.");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("delegationId", delegationId);
        out.put("branch", d.branch());
        out.put("worktree", d.workspaceRoot().toString());
        if (!"completed".equals(outcome)) {
            out.put("status", "kept");
            out.put("report", "The delegate " + outcome + "; its work is kept on branch " + d.branch() + " in "
                    + d.workspaceRoot() + ". Resume it (its calls keep delegationId " + delegationId
                    + ") and complete it again to merge it back.");
            return out;
        }
        try (AdmissionQueue.Ticket permit = admission.admit(sessionId, true, List.of())) {
            WorktreeRecord s = worktrees.ofSession(sessionId).orElseThrow(() -> new WorktreeException(
                    ErrorCode.WORKTREE_MISSING, "the session has no worktree"));
            worktrees.requireIntact(s);
            HardenedGit git = worktrees.git();
            HardenedGit.Bound target = boundWorktree(git, s);
            // the session's own pending edits first, so the fast-forward cannot collide with them
            MergeFlow.checkpoint(target, "pi-host: checkpoint of session " + sessionId + " before delegate "
                    + delegationId + " merges back");
            Map<String, Object> merged = new MergeFlow(boundWorktree(git, d), target, Path.of(s.path()).getParent())
                    .merge(null, "pi-host: delegate " + delegationId + " completed");
            out.putAll(merged);
            if ("conflict".equals(merged.get("status"))) {
                out.put("report", "Merging the delegate back stopped at conflicts in " + merged.get("conflicts")
                        + "; its branch " + d.branch() + " is kept in " + d.workspaceRoot()
                        + ". Resume the delegate to resolve them, then complete it again.");
            } else {
                worktrees.remove(d);
                out.put("report", "The delegate's work is merged into the session's worktree.");
            }
            return out;
        } catch (WorktreeException e) {
            out.put("status", "kept");
            out.put("errorCode", e.code().name());
            out.put("report", "Merging the delegate back failed (" + e.getMessage() + "); its branch " + d.branch()
                    + " is kept.");
            return out;
        } catch (GitException | IOException e) {
            out.put("status", "kept");
            out.put("errorCode", ErrorCode.WORKTREE_MERGE_FAILED.name());
            out.put("report", "Merging the delegate back failed (" + e.getMessage() + "); its branch " + d.branch()
                    + " is kept.");
            return out;
        }
    }

    /** The flow from the session's worktree into the project's work tree, both checked first. */
    private MergeFlow intoProject(WorktreeRecord w) throws WorktreeException, GitException {
        HardenedGit git = worktrees.git();
        HardenedGit.Bound source = boundWorktree(git, w);
        Path project = Path.of(w.repository()).resolve(w.subdir());
        GitLocation.Repository repo = GitLocation.project(git, GitLocation.real(project));
        if (!repo.commonDir().toString().equals(w.commonDir())) {
            throw new WorktreeException(ErrorCode.WORKTREE_INVALID, "the project at " + project
                    + " is no longer the repository the worktree was made from");
        }
        return new MergeFlow(source, git.bind(repo.toplevel(), null), Path.of(w.path()).getParent());
    }

    /** git in a host worktree: intact, and still the registration the host made. */
    private HardenedGit.Bound boundWorktree(HardenedGit git, WorktreeRecord w) throws WorktreeException, GitException {
        worktrees.requireIntact(w);
        Path path = Path.of(w.path());
        try {
            GitLocation.worktree(git, path, Path.of(w.adminDir()), Path.of(w.commonDir()));
        } catch (GitException e) {
            throw new WorktreeException(ErrorCode.WORKTREE_INVALID, e.getMessage());
        }
        return git.bind(path, path.getParent());
    }

    private WorktreeRecord sessionWorktree(String sessionId) throws RpcException {
        SessionRecord s = SessionMethods.require(sessions, sessionId);
        if (!s.isolated()) {
            throw RpcException.invalidParams("session " + sessionId + " is not isolated: it has no worktree to merge");
        }
        return worktrees.ofSession(sessionId).orElseThrow(() -> RpcException.invalidParams(ErrorCode.WORKTREE_MISSING,
                "session " + sessionId + " has no worktree"));
    }

    private byte[] bytes() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return b;
    }

    @Override
    public void sessionDeleted(String sessionId) {
        previews.remove(sessionId);
    }
}
