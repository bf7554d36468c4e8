package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import pi.host.core.internal.rpc.RpcMethod;

/**
 * One {@code tools.execute} call as received.
 *
 * @param arguments the raw arguments (validated by the pipeline, never trusted)
 * @param delegate the delegate making the call, or null for the session's own agent
 * @param client the connection the call came on (a tool the client executes, GenerateImages, asks it and no
 *     other), or null for a call no connection made
 */
public record ExecuteRequest(String sessionId, String turnId, String toolCallId, String name, JsonNode arguments,
        String messageId, Delegate delegate, RpcMethod.Caller client) {

    /** A call no connection made. */
    public ExecuteRequest(String sessionId, String turnId, String toolCallId, String name, JsonNode arguments,
            String messageId, Delegate delegate) {
        this(sessionId, turnId, toolCallId, name, arguments, messageId, delegate, null);
    }

    /**
     * The delegate behind a call (spec §10.2).
     *
     * @param source builtin, user or project: with {@code name}, the definition the host resolves the
     *     delegate's tools and permission scope from
     * @param permission the scope the client says the delegate has: informational only, the host
     *     takes the definition's own (see DelegateScope)
     */
    public record Delegate(String name, String source, String permission, String delegationId) {
    }
}
