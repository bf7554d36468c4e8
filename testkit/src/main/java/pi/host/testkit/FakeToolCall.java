package pi.host.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;

/**
 * What the host hands a tool, for tests that call a tool directly: arguments, workspace, ids, a deadline,
 * cancellation as the host does it on Stop, and the streamed output recorded. One class for every tool
 * test (the builtins', the plugin runtime's, the sample plugins' and a scaffolded plugin's), so a change
 * of {@link ToolCall} is made once. The defaults suit a test that only looks at the result; the setters
 * change one fact each and return this call.
 */
public class FakeToolCall implements ToolCall {

    private final Path workspace;
    private final Map<String, Object> arguments;
    private final Instant deadline;
    private volatile String toolName = "tool";
    private volatile String sessionId = "s1";
    private volatile String turnId = "t1";
    private volatile Path scratchDir;
    private volatile ResolvedPath path;
    private volatile BiConsumer<Stream, String> onOutput = (stream, chunk) -> { };
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private final List<Runnable> cancelActions = new ArrayList<>();
    private boolean cancelled;

    /** A call with 30 s to run, its scratch folder {@code .scratch} in the workspace. */
    public FakeToolCall(Path workspace, Map<String, Object> arguments) {
        this(workspace, arguments, Duration.ofSeconds(30));
    }

    /** A call whose deadline is {@code budget} from now. */
    public FakeToolCall(Path workspace, Map<String, Object> arguments, Duration budget) {
        this.workspace = Objects.requireNonNull(workspace, "workspace");
        this.arguments = Objects.requireNonNull(arguments, "arguments");
        this.deadline = Instant.now().plus(budget);
    }

    /** The tool name the call carries (default {@code tool}). */
    public FakeToolCall toolName(String name) {
        this.toolName = name;
        return this;
    }

    /** The session and turn the call belongs to (default {@code s1}, {@code t1}). */
    public FakeToolCall ids(String session, String turn) {
        this.sessionId = session;
        this.turnId = turn;
        return this;
    }

    /** The call's scratch folder (default {@code <workspace>/.scratch}; nothing creates it). */
    public FakeToolCall scratchDir(Path dir) {
        this.scratchDir = dir;
        return this;
    }

    /** The path the host resolved for the call (default none). */
    public FakeToolCall path(ResolvedPath resolved) {
        this.path = resolved;
        return this;
    }

    /** Runs with every chunk the tool streams, on the tool's thread, after the chunk is recorded. */
    public FakeToolCall onOutput(BiConsumer<Stream, String> action) {
        this.onOutput = Objects.requireNonNull(action, "action");
        return this;
    }

    /** The chunks streamed to {@code stream} so far, in order. */
    public List<String> output(Stream stream) {
        return List.copyOf(stream == Stream.STDOUT ? stdout : stderr);
    }

    /** What the host does on Stop: marks the call cancelled and runs the tool's cancel actions, once each. */
    public void cancel() {
        List<Runnable> actions;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            actions = List.copyOf(cancelActions);
            cancelActions.clear();
        }
        actions.forEach(Runnable::run);
    }

    @Override
    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /** As the host: an action registered after the cancellation runs at once. */
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
    public void output(Stream stream, String chunk) {
        (stream == Stream.STDOUT ? stdout : stderr).add(chunk);
        onOutput.accept(stream, chunk);
    }

    @Override
    public String toolName() {
        return toolName;
    }

    @Override
    public Map<String, Object> arguments() {
        return arguments;
    }

    @Override
    public String sessionId() {
        return sessionId;
    }

    @Override
    public String turnId() {
        return turnId;
    }

    @Override
    public String toolCallId() {
        return "c1";
    }

    @Override
    public Optional<ResolvedPath> path() {
        return Optional.ofNullable(path);
    }

    @Override
    public Path workspaceRoot() {
        return workspace;
    }

    @Override
    public Path scratchDir() {
        Path dir = scratchDir;
        return dir != null ? dir : workspace.resolve(".scratch");
    }

    @Override
    public String traceId() {
        return "trace-1";
    }

    @Override
    public Instant deadline() {
        return deadline;
    }
}
