package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolResult;
import pi.host.core.internal.approval.ApprovalService;
import pi.host.core.internal.approval.GrantScope;
import pi.host.core.internal.approval.PermissionRequest;
import pi.host.core.internal.approval.SessionGrants;
import pi.host.core.internal.args.ArgumentAliases;
import pi.host.core.internal.args.ArgumentException;
import pi.host.core.internal.audit.AuditLog;
import pi.host.core.internal.audit.Redactor;
import pi.host.core.internal.catalog.Activations;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.delegation.DelegateScope;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.json.PlainValues;
import pi.host.core.internal.paths.PathException;
import pi.host.core.internal.paths.PathResolver;
import pi.host.core.internal.paths.Resolution;
import pi.host.core.internal.policy.Admission;
import pi.host.core.internal.policy.Decision;
import pi.host.core.internal.policy.HostState;
import pi.host.core.internal.policy.ModeMatrix;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.policy.PermissionModes;
import pi.host.core.internal.policy.Policy;
import pi.host.core.internal.policy.PolicyInput;
import pi.host.core.internal.policy.RepositoryFiles;
import pi.host.core.internal.policy.ToolKind;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.session.SessionListener;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;

/**
 * The one path every tool call takes (ARCHITECTURE.md): session → cancellation → catalog and mode
 * → arguments → paths → policy → approval → paths again → admission → execution → bounds → result
 * → audit. Builtins, plugins, MCP tools and delegates all come through here; nothing else calls a
 * provider. Every call ends with an audit row and a {@code tool.completed} notification.
 */
@Component(service = ToolPipeline.class)
public final class ToolPipeline {

    private final SessionService sessions;
    private final SettingsService settings;
    private final ToolRegistry registry;
    private final Catalog catalog;
    private final ApprovalService approvals;
    private final SessionGrants grants;
    private final AuditLog audit;
    private final HostEvents events;
    private final CancellationRegistry cancellations;
    private final AdmissionQueue admission;
    private final List<SessionListener> sessionState;
    private final Activations activations;
    private final DelegateScope delegates;
    private final HostState hostState;
    private final ToolRunner runner = new ToolRunner();
    private final SessionResolvers resolvers = new SessionResolvers();

    @Activate
    public ToolPipeline(@Reference SessionService sessions, @Reference SettingsService settings,
            @Reference ToolRegistry registry, @Reference Catalog catalog, @Reference ApprovalService approvals,
            @Reference SessionGrants grants, @Reference AuditLog audit, @Reference HostEvents events,
            @Reference CancellationRegistry cancellations, @Reference AdmissionQueue admission,
            @Reference Activations activations, @Reference DelegateScope delegates) {
        this.activations = activations;
        this.delegates = delegates;
        this.cancellations = cancellations;
        this.admission = admission;
        // the per-session state the pipeline works with goes when its session is deleted
        this.sessionState = List.of(cancellations, admission, grants, activations, resolvers);
        sessionState.forEach(sessions::addListener);
        this.sessions = sessions;
        this.settings = settings;
        this.registry = registry;
        this.catalog = catalog;
        this.approvals = approvals;
        this.grants = grants;
        this.audit = audit;
        this.events = events;
        try {
            this.hostState = new HostState(sessions.dataDir());
        } catch (IOException e) {
            // without the data dir's real location nothing could be kept out of it: do not activate
            throw new IllegalStateException("the data dir cannot be resolved: " + e.getMessage(), e);
        }
    }

    @Deactivate
    private void deactivate() {
        sessionState.forEach(sessions::removeListener);
        cancellations.cancelAll(null, "shutdown");
        runner.close();
    }

    /** Aborts an in-flight call (PROTOCOL.md {@code tools.abort}). */
    public boolean abort(String sessionId, String toolCallId, String toolName) {
        return cancellations.abort(sessionId, toolCallId, toolName);
    }

    /** {@link #abort} when it cannot block, else null (the call runs: see CancellationRegistry). */
    public Boolean abortUnlessRunning(String sessionId, String toolCallId, String toolName) {
        return cancellations.abortUnlessRunning(sessionId, toolCallId, toolName);
    }

    /** Announces the later calls of a batch so that an abort by call id reaches them before they start. */
    public void expect(String sessionId, String toolCallId, String toolName) {
        cancellations.expect(sessionId, toolCallId, toolName);
    }

    public void unexpect(String sessionId, String toolCallId) {
        cancellations.unexpect(sessionId, toolCallId);
    }

    /**
     * Ends a call that may not run at all (a batch rule), with the same audit row and
     * {@code tool.completed} as every other call: nothing of the tool runs.
     */
    public ResultEnvelope refuse(ExecuteRequest request, ErrorCode code, String message, String rule) {
        CallState state = new CallState(request, TraceIds.next());
        state.redactedArguments = Redactor.redact(request.arguments());
        state.decided("deny", rule, "batch");
        return finish(state, fail(state, code, message));
    }

    /**
     * Runs one call to its result, on another thread: the result comes at the call's timeout even
     * when the tool's body does not return. For callers that need their thread back (a sequential
     * batch); never throws.
     */
    public ResultEnvelope execute(ExecuteRequest request) {
        CompletableFuture<ResultEnvelope> result = new CompletableFuture<>();
        try {
            runner.hand(() -> execute(request, result::complete));
        } catch (RejectedExecutionException e) {
            return refuse(request, ErrorCode.TOOL_FAILED, "the host is shutting down; nothing ran", "shutdown");
        }
        return result.join();
    }

    /**
     * Runs one call; {@code answer} receives its result exactly once. The tool's body runs on this
     * thread (no hand-off), so this returns when the body has returned; a timeout or an abort of a
     * read-only tool answers earlier, from another thread (ToolRunner).
     */
    public void execute(ExecuteRequest request, Consumer<ResultEnvelope> answer) {
        CallState state = new CallState(request, TraceIds.next());
        state.ending = new CallEnding(result -> answer.accept(finish(state, result)));
        ResultEnvelope refused;
        try {
            refused = run(request, state);
        } catch (RuntimeException | LinkageError e) {
            if (state.ending.ended()) {
                throw e; // the call had ended: answering it failed, the caller reports that
            }
            // a bug here must still end as a typed, audited result, never a dead request
            refused = ResultEnvelope.error(ErrorCode.TOOL_FAILED, "internal error: " + e, state.traceId);
        }
        if (refused != null) {
            state.ending.end(refused);
        }
    }

    /** A refusal, or null once the tool's body has run (its result went to {@code state.ending}). */
    private ResultEnvelope run(ExecuteRequest req, CallState state) {
        state.redactedArguments = Redactor.redact(req.arguments());
        SessionRecord session;
        try {
            session = sessions.find(req.sessionId()).orElse(null);
        } catch (StorageException e) {
            return fail(state, ErrorCode.STORAGE_ERROR, "the session store cannot be read: " + e.getMessage());
        }
        if (session == null) {
            return fail(state, ErrorCode.SESSION_NOT_FOUND, "no session " + req.sessionId());
        }
        Optional<CallCancellation> registered = cancellations.register(req.sessionId(), req.toolCallId(), req.name());
        if (registered.isEmpty()) {
            return fail(state, ErrorCode.INVALID_ARGUMENT, "toolCallId " + req.toolCallId() + " is already in flight");
        }
        CallCancellation cancel = registered.get();
        state.ending = state.ending.after(() -> cancellations.unregister(req.sessionId(), req.toolCallId(), cancel));
        return admitAndRun(req, state, session, cancel);
    }

    /** A refusal, or null once the tool's body has run (its result went to {@code state.ending}). */
    private ResultEnvelope admitAndRun(ExecuteRequest req, CallState state, SessionRecord session,
            CallCancellation cancel) {
        if (cancel.isCancelled()) {
            return fail(state, ErrorCode.TOOL_ABORTED, "the call was aborted before it started");
        }
        // catalog: exact names only
        RegisteredTool tool = registry.find(req.name()).orElse(null);
        if (tool == null) {
            state.decided("deny", "catalog.unknown", "registry");
            return fail(state, ErrorCode.UNKNOWN_TOOL, "unknown tool '" + req.name() + "'");
        }
        // the operating-mode matrix: a hard deny before any card, whatever the permission mode or grants
        OperatingMode mode = OperatingMode.parse(session.mode()).orElse(null);
        ToolKind kind = ToolKind.of(tool.origin(), tool.localName());
        if (mode == null) {
            state.decided("mode-deny", "mode.unknown", "session");
            return fail(state, ErrorCode.MODE_DENIED, "the session's mode '" + session.mode() + "' is unknown");
        }
        Admission admitted = ModeMatrix.admit(mode, kind, !tool.planSafeActions().isEmpty());
        if (!admitted.admitted()) {
            state.decided("mode-deny", admitted.rule(), "mode:" + mode.wire());
            return fail(state, admitted.code(), req.name() + " is not available in " + mode.wire() + " mode");
        }
        // delegation (spec §10.2): Task needs a subagent definition; a delegate stays inside the tools
        // the host resolves from its definition, before any card
        DelegateScope.Verdict delegation = delegates.check(session, mode, req.name(),
                req.delegate() == null ? null : req.delegate().name(),
                req.delegate() == null ? null : req.delegate().source());
        if (delegation.refused()) {
            state.decided("deny", delegation.rule(), "delegate-scope");
            return fail(state, delegation.code(), delegation.message());
        }
        // a deferred tool runs only once ToolSearch or a composer selection activated it this prompt; a
        // delegate has no ToolSearch, so the tool set fixed by its definition counts as activated
        if (tool.deferred() && !delegation.inScope() && !activations.isActive(session.id(), req.name())) {
            state.decided("deny", "catalog.not-active", "activation");
            return fail(state, ErrorCode.TOOL_NOT_ACTIVE, req.name() + " is an on-demand tool that is not active;"
                    + " call ToolSearch with its name first");
        }
        // arguments
        ObjectNode args;
        try {
            args = ArgumentAliases.fold(tool.origin() == ToolOrigin.BUILTIN ? tool.localName() : req.name(),
                    req.arguments());
        } catch (ArgumentException e) {
            return fail(state, ErrorCode.INVALID_ARGUMENT, e.getMessage());
        }
        List<String> problems = catalog.validate(tool, args);
        if (!problems.isEmpty()) {
            return fail(state, ErrorCode.INVALID_ARGUMENT, "invalid arguments for " + req.name() + ": "
                    + String.join("; ", problems));
        }
        if (kind == ToolKind.PLUGIN && mode != OperatingMode.AGENT) {
            JsonNode action = args.get("action");
            if (action == null || !action.isTextual() || !tool.planSafeActions().contains(action.textValue())) {
                state.decided("deny", "plan.action", "planSafeActions");
                return fail(state, ErrorCode.PERMISSION_DENIED, "action " + action + " of " + req.name()
                        + " is not plan-safe; allowed in " + mode.wire() + " mode: " + tool.planSafeActions());
            }
        }
        // paths: resolved against the session roots before policy (only for tools that take one)
        Path workspace = Path.of(session.workspaceRoot());
        Path scratch = sessions.scratchDir(session.id());
        PathResolver resolver = null;
        Resolution resolution = null;
        if (tool.pathArg() != null) {
            try {
                if (session.temporary()) {
                    sessions.ensureScratch(session.id()); // a temporary session's workspace is its scratch dir
                }
                resolver = resolvers.of(session.id(), workspace, scratch);
                resolution = resolver.resolve(rawPath(tool, args, workspace), tool.pathKind());
            } catch (PathException e) {
                ResultEnvelope r = fail(state, e.code(), e.getMessage());
                return e.suggestion() == null ? r
                        : r.withDetail("suggestion", Json.mapper().valueToTree(e.suggestion()));
            } catch (IOException | RuntimeException e) {
                return fail(state, ErrorCode.INVALID_ARGUMENT, "the session's roots cannot be used: " + e.getMessage());
            }
        }
        // the host's own state: a hard deny before any card, in every mode, whatever grant exists
        if (resolution != null && hostState.isHostState(resolution.path().absolute(), ownRoots(resolver))) {
            state.decided("deny", "host-state.data-dir", "host-state");
            return fail(state, ErrorCode.TOOL_DENIED, hostState.refusal(req.name(), resolution.raw()));
        }
        boolean outside = resolution != null && resolution.outside();
        // policy
        PermissionMode permissionMode;
        try {
            permissionMode = permissionMode(delegation, session);
        } catch (StorageException e) {
            return fail(state, ErrorCode.STORAGE_ERROR, "the settings cannot be read: " + e.getMessage());
        }
        boolean scratchTarget = tool.mutates() && resolution != null
                && resolution.path().root() == ResolvedPath.Root.SCRATCH;
        boolean control = tool.mutates() && resolution != null && controlFile(resolution.path(), resolver);
        GrantScope scope = grantScope(req.name(), tool, resolution, control);
        Decision decision = Policy.decide(new PolicyInput(req.name(), kind, tool.risk(), permissionMode, outside,
                control, scratchTarget, grants.covers(session.id(), scope)));
        state.decided(decision.verdict().wire(), decision.rule(),
                decision.source());
        switch (decision.verdict()) {
            case DENY:
                state.decided("deny", decision.rule(), decision.source());
                markExternal(state, outside, false);
                return fail(state, ErrorCode.TOOL_DENIED, "denied by policy: " + decision.reason());
            case ASK:
                ResultEnvelope refused = askUser(req, state, session, tool, decision, resolution, scope, cancel);
                if (refused != null) {
                    markExternal(state, outside, false);
                    return refused;
                }
                break;
            default:
                state.decided("allow", decision.rule(), decision.source());
        }
        markExternal(state, outside, true);
        // paths again, right before execution: approval cannot skip canonicalisation
        ResolvedPath path = null;
        if (resolution != null) {
            try {
                path = resolver.recheck(resolution, tool.pathKind());
            } catch (PathException e) {
                return fail(state, e.code(), e.getMessage());
            }
            if (hostState.isHostState(path.absolute(), ownRoots(resolver))) {
                state.decided("deny", "host-state.data-dir", "host-state");
                return fail(state, ErrorCode.TOOL_DENIED, hostState.refusal(req.name(), resolution.raw()));
            }
        }
        return admitAndExecute(req, state, session, tool, kind, args, path, workspace, scratch, cancel);
    }

    private ResultEnvelope askUser(ExecuteRequest req, CallState state, SessionRecord session, RegisteredTool tool,
            Decision decision, Resolution resolution, GrantScope scope, CallCancellation cancel) {
        String external = resolution != null && resolution.outside() ? resolution.path().absolute().toString() : null;
        PermissionRequest card = new PermissionRequest(ApprovalService.newRequestId(), session.id(), req.turnId(),
                req.toolCallId(), req.name(), tool.risk().wire(), decision.reason(), state.redactedArguments,
                external, req.delegate() == null ? null : req.delegate().name(), System.currentTimeMillis(),
                scope.wire());
        state.prompted = true;
        long asked = System.nanoTime();
        ApprovalService.Outcome outcome = approvals.ask(card, cancel);
        state.waitNanos = System.nanoTime() - asked;
        switch (outcome) {
            case ALLOWED_SESSION:
                grants.grant(session.id(), scope);
                state.decided("allow", decision.rule(), "user:allow-session");
                return null;
            case ALLOWED_ONCE:
                state.decided("allow", decision.rule(), "user:allow-once");
                return null;
            case DENIED:
                state.decided("deny", decision.rule(), "user");
                return fail(state, ErrorCode.TOOL_DENIED, "user denied permission");
            case CANCELLED:
                state.decided("deny", decision.rule(), "cancelled");
                return fail(state, ErrorCode.TOOL_ABORTED, "the call was aborted while waiting for permission");
            case SHUTDOWN:
                state.decided("deny", decision.rule(), "shutdown");
                return fail(state, ErrorCode.TOOL_DENIED, "the host is shutting down; nothing ran");
            default:
                state.decided("deny", decision.rule(), "no-approver");
                return fail(state, ErrorCode.TOOL_DENIED,
                        "permission is required but no client is attached to approve; nothing ran");
        }
    }

    /** A refusal, or null once the tool's body has run (its result went to {@code state.ending}). */
    private ResultEnvelope admitAndExecute(ExecuteRequest req, CallState state, SessionRecord session,
            RegisteredTool tool, ToolKind kind, ObjectNode args, ResolvedPath path, Path workspace, Path scratchDir,
            CallCancellation cancel) {
        Path scratch = scratchDir;
        try {
            if (tool.mutates()) {
                scratch = sessions.ensureScratch(session.id());
            }
        } catch (IOException e) {
            return fail(state, ErrorCode.TOOL_FAILED, "the scratch dir cannot be created: " + e.getMessage());
        }
        Thread waiter = Thread.currentThread();
        AdmissionQueue.Ticket ticket;
        try (CallCancellation.AutoCloseableAction wake = cancel.onCancel(waiter::interrupt)) {
            ticket = admission.admit(session.id(), tool.mutates(), path == null ? null : path.absolute(),
                    tool.mutates());
        } catch (InterruptedException e) {
            return fail(state, ErrorCode.TOOL_ABORTED, "the call was aborted while queued");
        } finally {
            Thread.interrupted(); // an abort that raced with admission must not leak into the run
        }
        CallEnding ending = state.ending.after(ticket::close); // however the call ends, even before its body does
        state.ending = ending;
        if (cancel.isCancelled()) {
            return fail(state, ErrorCode.TOOL_ABORTED, "the call was aborted while queued");
        }
        Map<String, Object> plainArgs = plainArguments(args);
        Instant deadline = Instant.now().plusMillis(tool.timeoutMs());
        boolean walks = tool.pathKind() == PathKind.DIRECTORY || tool.pathKind() == PathKind.FILE_OR_DIRECTORY;
        HostToolCall call = new HostToolCall(tool.localName(), plainArgs, session.id(), req.turnId(),
                req.toolCallId(), state.traceId, deadline, path, workspace, scratch, cancel, events, req.messageId(),
                req.delegate() == null ? null : req.delegate().delegationId(),
                walks && path != null ? hostState.walkExclusions(path.absolute()) : List.of());
        long started = System.nanoTime();
        runner.run(tool.provider(), call, cancel, tool.timeoutMs(), kind == ToolKind.READ, outcome -> {
            state.bodyNanos = System.nanoTime() - started;
            ending.end(envelope(state, tool, outcome, path, call));
        });
        return null;
    }

    private ResultEnvelope envelope(CallState state, RegisteredTool tool, ToolRunner.Outcome outcome,
            ResolvedPath path, HostToolCall call) {
        switch (outcome.kind()) {
            case TIMEOUT:
                return ResultEnvelope.error(ErrorCode.TOOL_TIMEOUT, tool.name() + " did not finish within "
                        + tool.timeoutMs() + " ms and was cancelled", state.traceId)
                        .withDetail("timeoutMs", JsonNodeFactory.instance.numberNode(tool.timeoutMs()));
            case ABORTED:
                return ResultEnvelope.error(ErrorCode.TOOL_ABORTED, "the call was aborted", state.traceId);
            case FAILED:
                return ResultEnvelope.error(ErrorCode.TOOL_FAILED, tool.name() + " failed: " + outcome.failure(),
                        state.traceId);
            default:
                return fromResult(state, outcome.result(), path, call);
        }
    }

    private ResultEnvelope fromResult(CallState state, ToolResult result, ResolvedPath path, HostToolCall call) {
        ObjectNode details;
        try {
            JsonNode tree = PlainValues.toTree(result.details());
            details = tree instanceof ObjectNode ? (ObjectNode) tree : JsonNodeFactory.instance.objectNode();
        } catch (IllegalArgumentException e) {
            return ResultEnvelope.error(ErrorCode.TOOL_FAILED, "the tool returned details that are not JSON: "
                    + e.getMessage(), state.traceId);
        }
        boolean[] cut = {false};
        List<String> text = OutputLimits.bound(result.text(), OutputLimits.MAX_RESULT_CHARS, cut);
        // review records come from the host's ReviewSnapshots (reachable by builtins only), never from
        // the provider's result, and only a successful call carries them (spec §4c)
        com.fasterxml.jackson.databind.node.ArrayNode review = JsonNodeFactory.instance.arrayNode();
        if (result.ok()) {
            call.review().forEach(r -> review.add(Json.mapper().valueToTree(r)));
        }
        return new ResultEnvelope(result.errorCode(), text, details, path == null ? null : path.root().wire(),
                path == null ? null : path.display(), state.traceId, result.truncated() || cut[0],
                review, result.terminate());
    }

    /** True when an in-root location is a repository control file (RepositoryFiles), judged below its root. */
    private static boolean controlFile(ResolvedPath path, PathResolver resolver) {
        switch (path.root()) {
            case WORKSPACE:
                return RepositoryFiles.isControlFile(path.display(), true);
            case SCRATCH:
                StringBuilder rel = new StringBuilder();
                resolver.scratchRoot().relativize(path.absolute())
                        .forEach(n -> rel.append(rel.length() == 0 ? "" : "/").append(n));
                return RepositoryFiles.isControlFile(rel.toString(), false);
            default:
                return false; // outside paths have their own card already
        }
    }

    /**
     * The calling session's own roots inside the data dir: its scratch dir. Its visualization dir and
     * an isolated session's worktree under {@code <data_dir>/worktrees/} belong here once they exist
     * (issue 17); every other location there is host state.
     */
    private static List<Path> ownRoots(PathResolver resolver) {
        return List.of(resolver.scratchRoot());
    }

    /**
     * What this call needs a grant to cover: an outside path is its own capability (spec §4a), a
     * directory argument covers what is below it, anything else the in-root scope.
     */
    private static GrantScope grantScope(String name, RegisteredTool tool, Resolution resolution, boolean control) {
        if (resolution == null || !resolution.outside() && !control) {
            return GrantScope.roots(name);
        }
        boolean below = tool.pathKind() == PathKind.DIRECTORY || tool.pathKind() == PathKind.FILE_OR_DIRECTORY;
        return new GrantScope(name, false, List.of(new GrantScope.Area(resolution.path().absolute(), below)));
    }

    /**
     * The arguments as the provider sees them: plain maps, lists, strings, numbers, as the mapper's
     * {@code treeToValue} reads them, without its token buffer round trip.
     */
    static Map<String, Object> plainArguments(ObjectNode args) {
        return PlainValues.toMap(args);
    }

    /** The raw path argument; an optional directory argument that was left out means the workspace root. */
    private static String rawPath(RegisteredTool tool, ObjectNode args, Path workspace) throws PathException {
        JsonNode raw = args.get(tool.pathArg());
        if (raw != null && raw.isTextual()) {
            return raw.textValue();
        }
        if (raw == null && (tool.pathKind() == PathKind.DIRECTORY || tool.pathKind() == PathKind.FILE_OR_DIRECTORY)) {
            return workspace.toString();
        }
        throw new PathException(ErrorCode.INVALID_ARGUMENT, "'" + tool.pathArg() + "' must be a path string");
    }

    /**
     * The permission mode this call is judged under: the explicit scope of the delegate's definition
     * (builtin and user definitions only; spec §10.2), otherwise session → global default → ask. Null
     * when a stored value is unknown, which the policy denies.
     */
    private PermissionMode permissionMode(DelegateScope.Verdict delegation, SessionRecord session)
            throws StorageException {
        if (delegation.permission() != null) {
            return delegation.permission();
        }
        return PermissionModes.effective(session.permissionMode(), settings.defaultPermissionMode()).orElse(null);
    }

    private static void markExternal(CallState state, boolean outside, boolean allowed) {
        if (outside) {
            state.externalPath = allowed ? "allowed" : "denied";
        }
    }

    private static ResultEnvelope fail(CallState state, ErrorCode code, String message) {
        return ResultEnvelope.error(code, message, state.traceId);
    }

    /** Audits the call and tells clients it completed. An audit failure turns a success into STORAGE_ERROR. */
    private ResultEnvelope finish(CallState state, ResultEnvelope result) {
        try {
            audit.append(state.audit(result));
        } catch (StorageException e) {
            System.getLogger(ToolPipeline.class.getName()).log(System.Logger.Level.ERROR,
                    "audit row lost for call " + state.request.toolCallId(), e);
            if (result.ok()) {
                result = ResultEnvelope.error(ErrorCode.STORAGE_ERROR,
                        "the call ran but its audit row could not be written: " + e.getMessage(), state.traceId);
            }
        }
        ObjectNode done = JsonNodeFactory.instance.objectNode();
        done.put("sessionId", state.request.sessionId());
        done.put("toolCallId", state.request.toolCallId());
        done.put("ok", result.ok());
        if (result.errorCode() == null) {
            done.putNull("errorCode");
        } else {
            done.put("errorCode", result.errorCode().name());
        }
        events.publish("tool.completed", done);
        return result;
    }
}
