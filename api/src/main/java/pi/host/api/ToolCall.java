package pi.host.api;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/** One admitted tool call, as the host hands it to a {@link ToolProvider}. */
@ProviderType
public interface ToolCall {

    /** The two output streams a tool may write to while it runs. */
    enum Stream {
        STDOUT, STDERR
    }

    /** The tool's own name (as in {@link Tool#name()}), not the name the model used. */
    String toolName();

    /** The validated arguments, aliases already folded; JSON values as maps, lists, strings, numbers, booleans. */
    Map<String, Object> arguments();

    /** The session the call belongs to. */
    String sessionId();

    /** The model turn the call belongs to. */
    String turnId();

    /** The client's id of this call. */
    String toolCallId();

    /**
     * The tool's path argument as the host resolved it (re-checked right before this call), or
     * empty when the tool declares none. For an optional directory argument that was not given, the
     * workspace root.
     */
    Optional<ResolvedPath> path();

    /** The session's workspace root (a temporary session's is its scratch dir). */
    Path workspaceRoot();

    /** The session's scratch dir (created by the host before a mutating tool runs). */
    Path scratchDir();

    /** The host's trace id of this call; it is also on the result and the audit row. */
    String traceId();

    /** When the host will give up on the call and answer {@code TOOL_TIMEOUT}. */
    Instant deadline();

    /** True once the call was aborted or timed out; the result will be discarded. */
    boolean isCancelled();

    /**
     * Runs {@code action} once when the call is cancelled (at once if it already is).
     * Actions must be quick and must not throw.
     */
    void onCancel(Runnable action);

    /** Streams a chunk of output to the client while the call runs (bounded and ordered by the host). */
    void output(Stream stream, String chunk);
}
