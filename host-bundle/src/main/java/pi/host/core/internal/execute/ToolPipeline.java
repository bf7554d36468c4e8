package pi.host.core.internal.execute;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.approval.ApprovalService;
import pi.host.core.internal.approval.SessionGrants;
import pi.host.core.internal.audit.AuditLog;
import pi.host.core.internal.audit.Redactor;
import pi.host.core.internal.catalog.Activations;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.delegation.DelegateScope;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.policy.HostState;
import pi.host.core.internal.rpc.OutputBatch;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.session.SessionListener;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.visualization.Visualizations;
import pi.host.core.internal.worktree.WorktreeService;

/**
 * The one path every tool call takes (ARCHITECTURE.md): builtins, plugins, MCP tools and delegates all
 * come through here, and nothing else calls a provider. A call goes through the steps below in order;
 * the first that refuses ends it. Every call ends with an audit row and a {@code tool.completed}
 * notification, however it ends.
 */
@Component(service = ToolPipeline.class)
public final class ToolPipeline {

    private final SessionService sessions;
    private final AuditLog audit;
    private final HostEvents events;
    private final CancellationRegistry cancellations;
    private final FirstAnswer warmUps;
    private final List<SessionListener> sessionState;
    private final ToolRunner runner = new ToolRunner();
    private final SessionResolvers resolvers = new SessionResolvers();
    /** The steps, top to bottom (docs/architecture.md, "One call, step by step"). */
    private final List<Step> steps;

    @Activate
    public ToolPipeline(@Reference SessionService sessions, @Reference SettingsService settings,
            @Reference ToolRegistry registry, @Reference Catalog catalog, @Reference ApprovalService approvals,
            @Reference SessionGrants grants, @Reference AuditLog audit, @Reference HostEvents events,
            @Reference CancellationRegistry cancellations, @Reference AdmissionQueue admission,
            @Reference Activations activations, @Reference DelegateScope delegates,
            @Reference WorktreeService worktrees, @Reference Visualizations visualizations,
            @Reference FirstAnswer warmUps) {
        this.sessions = sessions;
        this.warmUps = warmUps;
        // the mode matrix's and admission's first use off a session's first call (PipelineWarmUp)
        warmUps.warmUpAtOnce(PipelineWarmUp::run);
        this.audit = audit;
        this.events = events;
        this.cancellations = cancellations;
        HostState hostState;
        try {
            hostState = new HostState(sessions.dataDir());
        } catch (IOException e) {
            // without the data dir's real location nothing could be kept out of it: do not activate
            throw new IllegalStateException("the data dir cannot be resolved: " + e.getMessage(), e);
        }
        Step session = new SessionStep(sessions);
        Step roots = new RootStep(worktrees, visualizations);
        Step catalogLookup = new CatalogStep(registry);
        Step mode = new ModeStep();
        Step offer = new OfferStep();
        Step delegation = new DelegationStep(delegates);
        Step activation = new ActivationStep(activations);
        Step planActions = new PlanActionStep();
        Step policy = new PolicyStep(settings, grants);
        this.steps = List.of(
                session,                                                   // SESSION_NOT_FOUND, STORAGE_ERROR
                roots,                                                     // WORKTREE_MISSING
                new CancellationStep(cancellations),                       // before anything can wait
                catalogLookup,                                             // UNKNOWN_TOOL
                mode,                                                      // MODE_DENIED, PLUGIN_DISABLED_IN_PLAN
                offer,                                                     // UNKNOWN_TOOL (not offered)
                delegation,                                                // UNKNOWN_TOOL, TOOL_DENIED
                activation,                                                // TOOL_NOT_ACTIVE
                new ArgumentStep(catalog),                                 // INVALID_ARGUMENT
                planActions,                                               // PERMISSION_DENIED
                new PrepareStep(),                                         // INVALID_ARGUMENT
                new PathStep(sessions, resolvers, hostState, false),       // INVALID_ARGUMENT, TOOL_DENIED
                policy,                                                    // TOOL_DENIED
                new ApprovalStep(approvals, grants),                       // TOOL_DENIED, TOOL_ABORTED
                new AdmissionStep(sessions, admission, visualizations),    // TOOL_ABORTED
                new RecheckStep(session, roots, catalogLookup, List.of(mode, offer, delegation, activation, planActions,
                        new PathStep(sessions, resolvers, hostState, true), policy)), // the first check's code
                new ExecuteStep(sessions, events, hostState, runner));     // TOOL_TIMEOUT, TOOL_ABORTED, TOOL_FAILED
        // the per-session state the pipeline works with goes when its session is deleted
        this.sessionState = List.of(cancellations, admission, grants, activations, resolvers);
        sessionState.forEach(sessions::addListener);
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
        return finish(state, state.fail(code, message));
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
        // the after-answer warm-ups wait while a call runs: on 2 cores they would share its CPU
        warmUps.callStarted();
        state.ending = new CallEnding(result -> {
            // tool.completed and the answer that follows it on this thread leave in one write
            try (OutputBatch lines = OutputBatch.open()) {
                answer.accept(finish(state, result));
            } finally {
                warmUps.callEnded();
            }
        });
        ResultEnvelope refused;
        try {
            refused = run(state);
        } catch (RuntimeException | LinkageError e) {
            if (state.ending.ended()) {
                throw e; // the call had ended: answering it failed, the caller reports that
            }
            // a bug here must still end as a typed, audited result, never a dead request
            refused = state.fail(ErrorCode.TOOL_FAILED, "internal error: " + e);
        }
        if (refused != null) {
            state.ending.end(refused);
        }
    }

    /** A refusal, or null once the tool's body has run (its result went to {@code state.ending}). */
    private ResultEnvelope run(CallState state) {
        state.redactedArguments = Redactor.redact(state.request.arguments());
        for (Step step : steps) {
            // the first evaluation until the re-check replaces it with its own: execution uses that one
            ResultEnvelope refused = step.apply(state, state.last);
            if (refused != null) {
                return refused;
            }
        }
        return null;
    }

    /**
     * Bounds the result, audits the call and tells clients it completed. An audit failure turns a
     * success into STORAGE_ERROR.
     */
    private ResultEnvelope finish(CallState state, ResultEnvelope unbounded) {
        ResultEnvelope result = ResultBounds.bound(unbounded);
        try {
            audit.append(state.audit(result));
        } catch (StorageException e) {
            System.getLogger(ToolPipeline.class.getName()).log(System.Logger.Level.ERROR,
                    "audit row lost for call " + state.request.toolCallId(), e);
            if (result.ok()) {
                result = state.fail(ErrorCode.STORAGE_ERROR,
                        "the call ran but its audit row could not be written: " + e.getMessage());
            }
        }
        events.publish("tool.completed", new ToolCompleted(state.request.sessionId(), state.request.toolCallId(),
                result.ok(), result.errorCode() == null ? null : result.errorCode().name()));
        return result;
    }
}
