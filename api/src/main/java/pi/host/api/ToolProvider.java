package pi.host.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A tool the agent can call. Implemented by builtins, plugins and bridges; registered as an OSGi
 * service with the {@link Tool} properties.
 *
 * <p>The host calls {@link #execute} only after the call passed the mode matrix, argument
 * validation against {@link #inputSchema()}, path containment and the permission decision, and
 * it applies the timeout, the output bounds and the audit row itself. An exception thrown here
 * becomes a {@code TOOL_FAILED} result; it never reaches the host's caller.
 */
@ConsumerType
public interface ToolProvider {

    /** What the tool does, as the model reads it. */
    String description();

    /**
     * The JSON Schema of the tool's arguments, as JSON text. The host validates every call
     * against it before anything else sees the arguments.
     */
    String inputSchema();

    /**
     * Runs one admitted call. Long-running work should poll {@link ToolCall#isCancelled()} or
     * register {@link ToolCall#onCancel(Runnable)} and stream progress through
     * {@link ToolCall#output(ToolCall.Stream, String)}.
     *
     * @return the typed result; a failure is a result with an {@link ErrorCode}, not an exception
     * @throws Exception only for the unexpected; the host maps it to {@code TOOL_FAILED}
     */
    ToolResult execute(ToolCall call) throws Exception;
}
