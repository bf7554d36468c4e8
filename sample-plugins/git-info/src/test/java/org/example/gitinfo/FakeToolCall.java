package org.example.gitinfo;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;

/** What the host hands a tool, reduced to what a test sets: arguments, workspace, deadline, cancellation. */
final class FakeToolCall implements ToolCall {

    private final Map<String, Object> arguments;
    private final Path workspace;
    private final Instant deadline;
    private final List<Runnable> cancelActions = new ArrayList<>();
    private boolean cancelled;

    FakeToolCall(Path workspace, Map<String, Object> arguments) {
        this(workspace, arguments, Duration.ofSeconds(30));
    }

    FakeToolCall(Path workspace, Map<String, Object> arguments, Duration budget) {
        this.workspace = workspace;
        this.arguments = arguments;
        this.deadline = Instant.now().plus(budget);
    }

    /** What the host does on Stop: mark the call and run the tool's cancel actions. */
    void cancel() {
        List<Runnable> actions;
        synchronized (this) {
            cancelled = true;
            actions = List.copyOf(cancelActions);
        }
        actions.forEach(Runnable::run);
    }

    @Override
    public synchronized boolean isCancelled() {
        return cancelled;
    }

    @Override
    public void onCancel(Runnable action) {
        synchronized (this) {
            if (!cancelled) {
                cancelActions.add(action);
                return;
            }
        }
        action.run();
    }

    @Override
    public String toolName() {
        return "tool";
    }

    @Override
    public Map<String, Object> arguments() {
        return arguments;
    }

    @Override
    public String sessionId() {
        return "s1";
    }

    @Override
    public String turnId() {
        return "t1";
    }

    @Override
    public String toolCallId() {
        return "c1";
    }

    @Override
    public Optional<ResolvedPath> path() {
        return Optional.empty();
    }

    @Override
    public Path workspaceRoot() {
        return workspace;
    }

    @Override
    public Path scratchDir() {
        return workspace.resolve(".scratch");
    }

    @Override
    public String traceId() {
        return "trace-1";
    }

    @Override
    public Instant deadline() {
        return deadline;
    }

    @Override
    public void output(Stream stream, String chunk) {
        // these tests look at the result only
    }
}
