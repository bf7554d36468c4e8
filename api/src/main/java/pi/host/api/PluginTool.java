package pi.host.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * One tool of a plugin bundle: the behaviour only. Everything the host needs to know about the
 * tool (its name, description, input schema, risk, actions, plan-safe actions, timeout) is read
 * from the plugin's descriptor, the JSON file named by the bundle's {@code Pi-Plugin} manifest
 * header; the class named there implements this interface and has a public no-arg constructor.
 *
 * <p>The plugin runtime creates the instance only after the user granted the plugin
 * {@code agent.tool.register}, and calls {@link #execute} only for calls the host admitted: the
 * arguments were validated against the declared schema, an {@code action} outside the declared
 * actions (or outside the plan-safe ones in Plan and Goal) was refused before this code runs, and
 * the host applies the timeout, the output bounds and the audit row itself. No OSGi or DS code is
 * needed in a plugin.
 */
@ConsumerType
public interface PluginTool {

    /**
     * Runs one admitted call. Long-running work should poll {@link ToolCall#isCancelled()} or
     * register {@link ToolCall#onCancel(Runnable)}; progress may be streamed with
     * {@link ToolCall#output(ToolCall.Stream, String)}.
     *
     * @return the typed result; a failure is a result with an {@link ErrorCode}, not an exception.
     *     A null result counts as {@code TOOL_FAILED} ("malformed result").
     * @throws Exception only for the unexpected; the host maps it to {@code TOOL_FAILED}
     */
    ToolResult execute(ToolCall call) throws Exception;
}
