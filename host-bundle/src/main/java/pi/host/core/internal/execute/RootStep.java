package pi.host.core.internal.execute;

import java.nio.file.Path;
import pi.host.api.ErrorCode;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.WorktreeRecord;
import pi.host.core.internal.visualization.Visualizations;
import pi.host.core.internal.worktree.WorktreeException;
import pi.host.core.internal.worktree.WorktreeService;

/**
 * The call's roots (spec §4b.1, §4e, §10.2): its workspace root is the session's, except that an
 * isolated session works in its worktree, and a write delegate of one (its {@code delegationId}) in the
 * delegate's own; such a worktree that is missing, or whose folder (or one on its way) was replaced by a
 * link, is {@code WORKTREE_MISSING}: the call never falls back to the project. The visualization dir
 * joins while the setting is on.
 */
final class RootStep implements Step {

    private final WorktreeService worktrees;
    private final Visualizations visualizations;

    RootStep(WorktreeService worktrees, Visualizations visualizations) {
        this.worktrees = worktrees;
        this.visualizations = visualizations;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        try {
            e.visualizationDir = visualizations.dirFor(e.session.id()).orElse(null);
        } catch (StorageException ex) {
            return call.fail(ErrorCode.STORAGE_ERROR, "the settings cannot be read: " + ex.getMessage());
        }
        e.workspaceRoot = Path.of(e.session.workspaceRoot());
        if (!e.session.isolated()) {
            return null;
        }
        String delegation = call.request.delegate() == null ? null : call.request.delegate().delegationId();
        WorktreeRecord w = worktrees.forCall(e.session.id(), delegation).orElse(null);
        if (w == null) {
            return call.fail(ErrorCode.WORKTREE_MISSING, "the session's worktree is not known to the host; nothing"
                    + " ran (it never falls back to the project)");
        }
        try {
            worktrees.requireIntact(w);
        } catch (WorktreeException ex) {
            return call.fail(ex.code(), ex.getMessage() + "; nothing ran");
        }
        e.workspaceRoot = w.workspaceRoot();
        e.commandVariables = worktrees.variables(w);
        return null;
    }
}
