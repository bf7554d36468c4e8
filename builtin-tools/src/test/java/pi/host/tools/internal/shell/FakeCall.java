package pi.host.tools.internal.shell;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;
import pi.host.spi.RecoveryScope;

/**
 * A {@link ToolCall} for driving tools directly: records streamed output, can be cancelled; a
 * delegate's call when {@link #delegationId} is set (as the host's calls carry their recovery scope).
 */
final class FakeCall implements ToolCall, RecoveryScope {

    final Map<String, Object> args;
    final Path workspace;
    final Path scratch;
    final String sessionId;
    final String turnId;
    final List<String> stdoutChunks = new CopyOnWriteArrayList<>();
    final List<String> stderrChunks = new CopyOnWriteArrayList<>();
    private final List<Runnable> onCancel = new CopyOnWriteArrayList<>();
    private volatile boolean cancelled;
    /** Runs on the pump's thread with each chunk, before that pump reads on. */
    volatile BiConsumer<Stream, String> onOutput = (stream, chunk) -> { };
    /** The delegate run this call belongs to, or null for the parent's turn. */
    String delegationId;

    FakeCall(Map<String, Object> args, Path workspace, Path scratch) {
        this(args, workspace, scratch, "s1", "t1");
    }

    FakeCall(Map<String, Object> args, Path workspace, Path scratch, String sessionId, String turnId) {
        this.args = args;
        this.workspace = workspace;
        this.scratch = scratch;
        this.sessionId = sessionId;
        this.turnId = turnId;
    }

    @Override
    public String recoveryScope() {
        return delegationId != null ? "delegate:" + delegationId : "turn:" + turnId;
    }

    void cancel() {
        cancelled = true;
        onCancel.forEach(Runnable::run);
    }

    @Override
    public String toolName() {
        return "Bash";
    }

    @Override
    public Map<String, Object> arguments() {
        return args;
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
        return Optional.empty();
    }

    @Override
    public Path workspaceRoot() {
        return workspace;
    }

    @Override
    public Path scratchDir() {
        return scratch;
    }

    @Override
    public String traceId() {
        return "tr_test";
    }

    @Override
    public Instant deadline() {
        return Instant.now().plusSeconds(3600);
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public void onCancel(Runnable action) {
        onCancel.add(action);
        if (cancelled) {
            action.run();
        }
    }

    @Override
    public void output(Stream stream, String chunk) {
        (stream == Stream.STDOUT ? stdoutChunks : stderrChunks).add(chunk);
        onOutput.accept(stream, chunk);
    }
}
