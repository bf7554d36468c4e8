package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import pi.host.api.PathKind;
import pi.host.api.Risk;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.json.PlainValues;
import pi.host.core.internal.policy.HostState;
import pi.host.core.internal.registry.Preparer;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.SessionStore;
import pi.host.core.internal.store.SettingsStore;
import pi.host.spi.DeclaredPath;
import pi.host.spi.Invocation;
import pi.host.spi.ToolKind;

/**
 * The pipeline's steps' unit tests share this: a real SQLite file and session service under a data
 * dir, a project folder, tools built as the registry builds them, and calls in the state the
 * preceding steps would leave them.
 */
final class StepKit implements AutoCloseable {

    final Path data;
    final Path project;
    final Database db;
    final SessionService sessions;
    final SettingsService settings;
    final HostState hostState;
    final pi.host.core.internal.visualization.Visualizations visualizations;
    final pi.host.core.internal.worktree.WorktreeService worktrees;
    final SessionResolvers resolvers = new SessionResolvers();
    final CancellationRegistry cancellations = new CancellationRegistry();

    StepKit(Path tmp) throws IOException {
        data = Files.createDirectories(tmp.resolve("data")).toRealPath();
        project = Files.createDirectories(tmp.resolve("project")).toRealPath();
        db = Database.open(data.resolve("pi-host.db"));
        sessions = new SessionService(new SessionStore(db), data, Clock.systemUTC());
        settings = SettingsService.over(new SettingsStore(db));
        hostState = new HostState(data);
        visualizations = new pi.host.core.internal.visualization.Visualizations(settings, sessions);
        worktrees = new pi.host.core.internal.worktree.WorktreeService(
                new pi.host.core.internal.store.WorktreeStore(db), sessions, System.getenv());
    }

    /** The step that sets the call's roots (the pipeline's second step). */
    RootStep roots() {
        return new RootStep(worktrees, visualizations);
    }

    @Override
    public void close() {
        db.close();
    }

    SessionRecord session(String mode, String permissionMode) throws Exception {
        return sessions.create(project.toString(), false, mode, permissionMode, false);
    }

    static final ToolProvider ECHO = provider("{\"type\":\"object\"}", call -> ToolResult.ok("ran " + call.arguments()));

    /** A provider with this schema whose calls {@code body} answers ({@link Registered#provider}). */
    static ToolProvider provider(String schema, java.util.function.Function<ToolCall, ToolResult> body) {
        return Registered.provider(schema, body);
    }

    static RegisteredTool builtin(String name, ToolKind kind, Risk risk, boolean mutates) {
        return Registered.builtin(name, kind, risk, mutates, Preparer.none(name), ECHO);
    }

    /** A call of {@code tool} in {@code session}, as it stands after the arguments and preparation steps. */
    CallState call(SessionRecord session, RegisteredTool tool, String argsJson, DeclaredPath... paths)
            throws Exception {
        JsonNode args = Json.mapper().readTree(argsJson);
        CallState call = new CallState(new ExecuteRequest(session.id(), "t1", "c-" + System.nanoTime(), tool.name(),
                args, "m1", null), "tr_test");
        call.ending = new CallEnding(r -> { });
        call.cancel = cancellations.register(session.id(), call.request.toolCallId(), tool.name()).orElseThrow();
        call.arguments = (com.fasterxml.jackson.databind.node.ObjectNode) args;
        call.plainArguments = PlainValues.toMap(call.arguments);
        call.invocation = Invocation.of(tool.name(), List.of(paths));
        call.first.session = session;
        call.first.workspaceRoot = Path.of(session.workspaceRoot());
        call.first.tool = tool;
        call.first.delegation = pi.host.core.internal.delegation.DelegateScope.Verdict.NONE;
        return call;
    }

    static DeclaredPath path(String raw, PathKind kind, DeclaredPath.Access access) {
        return new DeclaredPath(raw, kind, access);
    }

    static Map<String, Object> none() {
        return Map.of();
    }
}
