package pi.host.core.internal.execute;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.rpc.RpcMethod;

/**
 * The host's {@link ToolCall}: what a provider gets for one admitted call. Public (inside an
 * internal package) so that the host's SPI components can read the message id and recovery scope
 * of a builtin's call and attach its review records.
 */
public final class HostToolCall implements ToolCall, pi.host.spi.RecoveryScope, pi.host.spi.WalkLimits,
        pi.host.spi.PreparedCall, pi.host.spi.CallRoots {

    /** Most characters streamed as {@code tool.output} for one call; the result still carries its own output. */
    static final long MAX_STREAMED_CHARS = 4L * 1024 * 1024;

    private final String toolName;
    private final Map<String, Object> arguments;
    private final String sessionId;
    private final String turnId;
    private final String toolCallId;
    private final String traceId;
    private final Instant deadline;
    private final List<ResolvedPath> paths;
    private final Path workspaceRoot;
    private final Path scratchDir;
    private final CallCancellation cancellation;
    private final HostEvents events;
    private final AtomicLong streamed = new AtomicLong();
    private final String messageId;
    private final String recoveryScope;
    private final List<Map<String, Object>> review = new CopyOnWriteArrayList<>();
    private final List<Path> excludedDirectories;
    private final Path visualizationDir;
    private final Map<String, String> commandVariables;
    private final RpcMethod.Caller client;

    HostToolCall(String toolName, Map<String, Object> arguments, String sessionId, String turnId, String toolCallId,
            String traceId, Instant deadline, List<ResolvedPath> paths, Path workspaceRoot, Path scratchDir,
            CallCancellation cancellation, HostEvents events, String messageId, String delegationId,
            List<Path> excludedDirectories, Path visualizationDir, Map<String, String> commandVariables,
            RpcMethod.Caller client) {
        this.excludedDirectories = excludedDirectories;
        this.visualizationDir = visualizationDir;
        this.commandVariables = commandVariables;
        this.client = client;
        this.messageId = messageId;
        // the loop guard's scope (EDIT-CONTRACT.md): the delegate run, else the parent turn
        this.recoveryScope = delegationId != null ? "delegate:" + delegationId : "turn:" + turnId;
        this.toolName = toolName;
        this.arguments = arguments;
        this.sessionId = sessionId;
        this.turnId = turnId;
        this.toolCallId = toolCallId;
        this.traceId = traceId;
        this.deadline = deadline;
        this.paths = paths;
        this.workspaceRoot = workspaceRoot;
        this.scratchDir = scratchDir;
        this.cancellation = cancellation;
        this.events = events;
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
        return toolCallId;
    }

    @Override
    public String traceId() {
        return traceId;
    }

    @Override
    public Optional<ResolvedPath> path() {
        return paths.isEmpty() ? Optional.empty() : Optional.of(paths.get(0));
    }

    @Override
    public List<ResolvedPath> paths() {
        return paths;
    }

    @Override
    public Path workspaceRoot() {
        return workspaceRoot;
    }

    @Override
    public Path scratchDir() {
        return scratchDir;
    }

    @Override
    public Instant deadline() {
        return deadline;
    }

    @Override
    public boolean isCancelled() {
        return cancellation.isCancelled();
    }

    @Override
    public void onCancel(Runnable action) {
        cancellation.onCancel(action);
    }

    @Override
    public void output(Stream stream, String chunk) {
        if (chunk == null || chunk.isEmpty() || streamed.addAndGet(chunk.length()) > MAX_STREAMED_CHARS) {
            return;
        }
        events.publish("tool.output", Map.of("sessionId", sessionId, "toolCallId", toolCallId,
                "stream", stream == Stream.STDERR ? "stderr" : "stdout", "chunk", chunk));
    }

    @Override
    public List<Path> excludedDirectories() {
        return excludedDirectories;
    }

    @Override
    public Path visualizationDir() {
        return visualizationDir;
    }

    @Override
    public Map<String, String> commandVariables() {
        return commandVariables;
    }

    /** The connection the call came on, or null when no connection made it. */
    public RpcMethod.Caller client() {
        return client;
    }

    /** Why the call was cancelled ("aborted", "timeout", "shutdown", ...), or null while it was not. */
    public String cancelReason() {
        return cancellation.reason();
    }

    /** The client's message id the call belongs to, or null when the client sent none. */
    public String messageId() {
        return messageId;
    }

    /** The scope failed Edits and patches are counted in: {@code delegate:<delegationId>} or {@code turn:<turnId>}. */
    @Override
    public String recoveryScope() {
        return recoveryScope;
    }

    /** Adds ReviewChange records; the pipeline puts them on the result when the call succeeds. */
    public void attachReview(List<Map<String, Object>> records) {
        review.addAll(records);
    }

    List<Map<String, Object>> review() {
        return List.copyOf(review);
    }
}
