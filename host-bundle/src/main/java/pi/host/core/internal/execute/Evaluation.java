package pi.host.core.internal.execute;

import java.util.List;
import pi.host.api.ResolvedPath;
import pi.host.core.internal.approval.GrantScope;
import pi.host.core.internal.delegation.DelegateScope;
import pi.host.core.internal.paths.PathResolver;
import pi.host.core.internal.paths.Resolution;
import pi.host.core.internal.policy.Decision;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.store.SessionRecord;

/**
 * What the host found and decided about one call from the state it read: the session, the tool, the
 * mode, the delegation verdict, the declared paths resolved, and the policy's decision. Filled in
 * before the card, and again into a fresh one right before execution (everything here can change
 * while a call waits).
 */
final class Evaluation {

    SessionRecord session;
    /**
     * The call's workspace root: the session's (its project, or its scratch dir), an isolated session's
     * worktree, or a write delegate's own worktree (RootStep).
     */
    java.nio.file.Path workspaceRoot;
    /** The session's visualization dir while inline visualizations are on, else null. */
    java.nio.file.Path visualizationDir;
    /** The variables a command of this call gets (an isolated session's PI_*). */
    java.util.Map<String, String> commandVariables = java.util.Map.of();
    RegisteredTool tool;
    OperatingMode mode;
    DelegateScope.Verdict delegation;
    PathResolver resolver;
    /** The declared paths as resolved (first evaluation) or re-checked (the re-check), in declaration order. */
    List<Resolution> resolutions = List.of();
    List<ResolvedPath> paths = List.of();
    /** The session's own roots inside the data dir (its scratch dir, visualization dir, the call's worktree). */
    List<java.nio.file.Path> ownRoots = List.of();
    boolean outside;
    boolean control;
    boolean scratchTarget;
    boolean visualizationTarget;
    GrantScope scope;
    PermissionMode permissionMode;
    Decision decision;
}
