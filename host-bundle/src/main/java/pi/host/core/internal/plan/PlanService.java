package pi.host.core.internal.plan;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;

/**
 * The Plan/Goal operating state (ADR 0053): entering Plan or Goal from Agent, submitting an
 * immutable host-written artifact under {@code .pi/plan} or {@code .pi/goal} with one pending
 * approval, and resolving it (approve/reject only). At activation every approval still pending
 * from a previous host becomes {@code interrupted}: nothing is replayed.
 */
@Component(service = PlanService.class)
public final class PlanService {

    /** The permission modes an approval may choose (inherit is not a choice the user makes here). */
    static final List<String> APPROVE_MODES = List.of("ask", "accept-edits", "auto");
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);

    private final PlanStore store;
    private final SessionService sessions;
    private final HostEvents events;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    @Activate
    public PlanService(@Reference StoreComponent store, @Reference SessionService sessions,
            @Reference HostEvents events) {
        this(new PlanStore(store.database()), sessions, events, Clock.systemUTC());
        try {
            int n = this.store.interruptPending(clock.millis());
            if (n > 0) {
                System.getLogger(PlanService.class.getName()).log(System.Logger.Level.INFO,
                        n + " pending plan approval(s) from a previous host marked interrupted");
            }
        } catch (StorageException e) {
            System.getLogger(PlanService.class.getName()).log(System.Logger.Level.WARNING,
                    "pending plan approvals could not be marked interrupted", e);
        }
    }

    PlanService(PlanStore store, SessionService sessions, HostEvents events, Clock clock) {
        this.store = store;
        this.sessions = sessions;
        this.events = events;
        this.clock = clock;
    }

    /** EnterPlanMode / EnterGoalMode: Agent → {@code mode} ("plan" or "goal"). */
    ToolResult enter(ToolCall call, String mode) {
        SessionRecord session;
        try {
            session = sessions.find(call.sessionId()).orElse(null);
            if (session == null) {
                return ToolResult.error(ErrorCode.SESSION_NOT_FOUND, "no session " + call.sessionId());
            }
            if (session.unattended()) {
                return interactiveOnly(mode);
            }
            sessions.changeStored(session.id(), () -> {
                store.enter(session.id(), mode, clock.millis());
                return null;
            });
        } catch (StorageException e) {
            return refusedOrStorage(e);
        }
        publishState(session.id(), mode, mode.equals("plan") ? "planning" : "goal_setting");
        return ToolResult.builder().text("The session is now in " + mode + " mode. Investigate with read-only"
                        + " tools, then call " + (mode.equals("plan") ? "SubmitPlan" : "SubmitGoal")
                        + " with the Markdown text for the user to approve or reject.")
                .detail("mode", mode).build();
    }

    /** SubmitPlan / SubmitGoal: writes the artifact, records one pending approval, returns at once. */
    ToolResult submit(ToolCall call, String kind, String text) {
        SessionRecord session;
        try {
            session = sessions.find(call.sessionId()).orElse(null);
        } catch (StorageException e) {
            return ToolResult.error(ErrorCode.STORAGE_ERROR, "the session store cannot be read: " + e.getMessage());
        }
        if (session == null) {
            return ToolResult.error(ErrorCode.SESSION_NOT_FOUND, "no session " + call.sessionId());
        }
        if (session.unattended()) {
            return interactiveOnly(kind);
        }
        Path root = Path.of(session.workspaceRoot());
        long now = clock.millis();
        String relative;
        Path file;
        try {
            file = writeArtifact(root, kind, text, now);
            relative = root.relativize(file).toString().replace('\\', '/');
        } catch (IOException | RuntimeException e) {
            return ToolResult.error(ErrorCode.TOOL_FAILED, "the " + kind + " artifact could not be written: "
                    + e.getMessage());
        }
        PlanStore.Approval approval = new PlanStore.Approval("plan_" + UUID.randomUUID().toString().replace("-", ""),
                session.id(), call.turnId(), call.toolCallId(), kind, relative, "pending", null, now, null);
        try {
            store.insertPending(approval);
        } catch (StorageException e) {
            try {
                Files.deleteIfExists(file); // nobody will ever be asked about it
            } catch (IOException ignored) {
                // an orphan artifact is harmless: it is never read back by the host
            }
            return refusedOrStorage(e);
        }
        Map<String, Object> request = view(approval);
        request.put("content", text);
        events.publish("plan.approval.request", request);
        publishState(session.id(), kind, "awaiting_approval");
        return ToolResult.builder().text("The " + kind + " was saved to " + relative + " and is awaiting the user's"
                        + " approval (id " + approval.id() + "). Stop here: the user approves or rejects it;"
                        + " after approval the session returns to agent mode.")
                .detail("approvalId", approval.id()).detail("artifactPath", relative)
                .detail("absolutePath", file.toString()).detail("status", "pending").build();
    }

    /** The new artifact: {@code <root>/.pi/<kind>/<UTC stamp>-<random>.md}, created new, never overwritten. */
    Path writeArtifact(Path root, String kind, String text, long now) throws IOException {
        Path realRoot = root.toRealPath();
        Path pi = realRoot.resolve(".pi");
        // checked before anything is created, so a link out of the root never gets a folder made through it
        if (Files.isSymbolicLink(pi) && (!Files.exists(pi) || !pi.toRealPath().startsWith(realRoot))) {
            throw new IOException("the workspace's .pi is a symbolic link out of the workspace root; refused");
        }
        Path dir = pi.resolve(kind);
        Files.createDirectories(dir);
        Path realDir = dir.toRealPath();
        if (!realDir.startsWith(realRoot)) {
            throw new IOException(".pi/" + kind + " leads out of the workspace root; refused");
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] suffix = new byte[6];
        random.nextBytes(suffix);
        Path file = realDir.resolve(STAMP.format(Instant.ofEpochMilli(now)) + "-" + HexFormat.of().formatHex(suffix)
                + ".md");
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            out.write(bytes);
        }
        return file;
    }

    /** {@code plans.pending}: the pending approvals, oldest first. */
    public Map<String, Object> pendingView(String sessionId) throws StorageException {
        return Map.of("approvals", store.pending(sessionId).stream().map(PlanService::view).toList());
    }

    /**
     * {@code plans.resolve}. Returns the resolved approval; throws {@link PlanStore.Refused} (nothing
     * changed) for unknown, foreign, stale or duplicate resolutions and a missing/invalid permission mode.
     */
    public Map<String, Object> resolve(String approvalId, String sessionId, String decision, String permissionMode)
            throws StorageException {
        boolean approve;
        if ("approve".equals(decision)) {
            approve = true;
            if (permissionMode == null || !APPROVE_MODES.contains(permissionMode)
                    || PermissionMode.parse(permissionMode).isEmpty()) {
                throw new PlanStore.Refused("approve needs permissionMode ask, accept-edits or auto");
            }
        } else if ("reject".equals(decision)) {
            approve = false;
        } else {
            throw new PlanStore.Refused("decision must be approve or reject");
        }
        PlanStore.Approval target = store.find(approvalId).orElseThrow(
                () -> new PlanStore.Refused("no plan approval " + approvalId));
        PlanStore.Approval done;
        try {
            done = sessions.changeStored(target.sessionId(),
                    () -> store.resolve(approvalId, sessionId, approve, permissionMode, clock.millis()));
        } catch (StorageException e) {
            if (e.getCause() instanceof PlanStore.Refused r) {
                throw r;
            }
            throw e;
        }
        if (approve) {
            publishState(done.sessionId(), "agent", "inactive");
        } else {
            publishState(done.sessionId(), done.kind(), done.kind().equals("plan") ? "planning" : "goal_setting");
        }
        return view(done);
    }

    private void publishState(String sessionId, String mode, String planState) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("sessionId", sessionId);
        state.put("mode", mode);
        state.put("planState", planState);
        events.publish("session.state", state);
    }

    static Map<String, Object> view(PlanStore.Approval a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("approvalId", a.id());
        m.put("sessionId", a.sessionId());
        m.put("turnId", a.turnId());
        m.put("toolCallId", a.toolCallId());
        m.put("kind", a.kind());
        m.put("artifactPath", a.artifactPath());
        m.put("status", a.status());
        m.put("permissionMode", a.permissionMode());
        m.put("createdAt", a.createdAt());
        m.put("resolvedAt", a.resolvedAt());
        return m;
    }

    private static ToolResult interactiveOnly(String mode) {
        return ToolResult.error(ErrorCode.PLAN_REQUIRES_INTERACTIVE_SESSION, mode + " mode needs a user to approve"
                + " the " + mode + "; this session is unattended, so nothing ran");
    }

    private static ToolResult refusedOrStorage(StorageException e) {
        if (e.getCause() instanceof PlanStore.Refused r) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, r.getMessage());
        }
        return ToolResult.error(ErrorCode.STORAGE_ERROR, "the plan state could not be saved: " + e.getMessage());
    }
}
