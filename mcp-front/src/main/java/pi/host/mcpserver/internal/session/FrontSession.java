package pi.host.mcpserver.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;

/**
 * One MCP session's pi-host session: every {@code tools/call} of that MCP session becomes one
 * {@code tools.execute} in it, with a turn id of its own, so the host's pipeline (catalog, mode,
 * activation, schema, paths, policy, card, admission, timeout, truncation, audit) decides and runs it
 * exactly as it does a desktop call.
 *
 * <p>Deferred tools (plugin and MCP tools) are activated the host's own way: a {@code ToolSearch}
 * call for the exact name, through the pipeline and audited, before the session's first call of
 * that tool; if something reset the session's activations since ({@code prompt.begin} from another
 * client), the call comes back {@code TOOL_NOT_ACTIVE} before anything ran and is activated and sent
 * once more.
 */
public final class FrontSession {

    /** Most early cancellations remembered (a cancel that overtook its call). */
    private static final int MAX_EARLY_CANCELS = 256;

    private final HostClient host;
    private final String sessionId;
    private final AtomicLong counter = new AtomicLong();
    private final Set<String> activated = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<String, InFlight> byCall = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, String> callByRequest = new ConcurrentHashMap<>();
    private final Set<String> cancelledEarly = Collections.newSetFromMap(new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_EARLY_CANCELS;
        }
    });

    private FrontSession(HostClient host, String sessionId) {
        this.host = host;
        this.sessionId = sessionId;
    }

    /** Creates the pi-host session: Agent mode, bound to the workspace (or temporary), with the mode asked for. */
    public static FrontSession create(HostClient host, String workspace, String permissionMode) throws HostError {
        ObjectNode p = HostClient.params();
        if (workspace == null) {
            p.putNull("projectRoot");
        } else {
            p.put("projectRoot", workspace);
        }
        p.put("mode", "agent");
        p.put("permissionMode", permissionMode == null ? "inherit" : permissionMode);
        return new FrontSession(host, host.callOnCallingThread("session.create", p).path("sessionId").asText());
    }

    public String sessionId() {
        return sessionId;
    }

    /** A deferred tool the front offers: a plugin's or an MCP server's (the builtins offered are never deferred). */
    public static boolean deferred(String toolName) {
        return toolName.startsWith("plugin_") || toolName.startsWith("mcp_");
    }

    /**
     * Runs one call and returns the host's ToolResult, or null when the client cancelled it before
     * it could be sent (nothing was sent to the host, so nothing ran).
     *
     * @param requestKey the MCP request's id (see InboundTap), or null when unknown
     * @param call what the call's card and output need; its toolCallId is assigned here
     */
    public JsonNode execute(String name, JsonNode arguments, String requestKey, CallContext call) throws HostError {
        long n = counter.incrementAndGet();
        String turnId = "mcp-turn-" + n;
        String toolCallId = "mcp-call-" + n;
        InFlight flight = call.inFlight(toolCallId, name);
        synchronized (cancelledEarly) {
            if (requestKey != null && cancelledEarly.remove(requestKey)) {
                // the client cancelled before the call reached the host: it is never sent, nothing runs
                return null;
            }
            byCall.put(toolCallId, flight);
            if (requestKey != null) {
                callByRequest.put(requestKey, toolCallId);
            }
        }
        try {
            if (deferred(name) && !activated.contains(name)) {
                activate(name, turnId, toolCallId);
            }
            JsonNode result = run(turnId, toolCallId, name, arguments);
            if (deferred(name) && "TOOL_NOT_ACTIVE".equals(result.path("errorCode").asText())) {
                activated.remove(name);
                activate(name, turnId, toolCallId);
                String again = toolCallId + "-again";
                byCall.put(again, call.inFlight(again, name));
                if (requestKey != null) {
                    callByRequest.put(requestKey, again);
                }
                try {
                    result = run(turnId, again, name, arguments);
                } finally {
                    byCall.remove(again);
                    if (requestKey != null) {
                        callByRequest.remove(requestKey, again);
                    }
                }
            }
            return result;
        } finally {
            byCall.remove(toolCallId);
            if (requestKey != null) {
                callByRequest.remove(requestKey, toolCallId);
            }
        }
    }

    private JsonNode run(String turnId, String toolCallId, String name, JsonNode arguments) throws HostError {
        ObjectNode p = HostClient.params().put("sessionId", sessionId).put("turnId", turnId)
                .put("toolCallId", toolCallId).put("name", name);
        p.set("arguments", arguments);
        return host.callOnCallingThread("tools.execute", p);
    }

    /** Activates one deferred tool for this session through ToolSearch (an audited pipeline call). */
    public void activate(String name, String turnId, String forCall) throws HostError {
        ObjectNode args = HostClient.params().put("query", name);
        JsonNode result = run(turnId, forCall + "-activate", "ToolSearch", args);
        for (JsonNode added : result.path("details").path("addedToolNames")) {
            if (added.asText().equals(name)) {
                activated.add(name);
            }
        }
    }

    /** The MCP client cancelled a request: its call is aborted (or will be, if it has not started). */
    public void cancel(String requestKey) {
        String toolCallId;
        synchronized (cancelledEarly) {
            toolCallId = callByRequest.get(requestKey);
            if (toolCallId == null) {
                cancelledEarly.add(requestKey);
                return;
            }
        }
        InFlight flight = byCall.get(toolCallId);
        if (flight != null) {
            abort(toolCallId, flight.toolName());
        }
    }

    /** Aborts every running call (the MCP session ended). */
    public void abortAll() {
        byCall.values().forEach(f -> abort(f.toolCallId(), f.toolName()));
    }

    private void abort(String toolCallId, String toolName) {
        ObjectNode p = HostClient.params().put("sessionId", sessionId).put("toolCallId", toolCallId)
                .put("toolName", toolName);
        try {
            host.callOnCallingThread("tools.abort", p);
        } catch (HostError e) {
            // nothing left to abort
        }
    }

    /** The running call with this id, or null. */
    public InFlight inFlight(String toolCallId) {
        return byCall.get(toolCallId);
    }

    /** Number of calls running now. */
    public int running() {
        return byCall.size();
    }

    /** How a call's MCP side is reached while it runs. */
    @FunctionalInterface
    public interface CallContext {
        InFlight inFlight(String toolCallId, String toolName);
    }
}
