package pi.host.mcpserver.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;

/**
 * The pi-host session of each MCP session: created on the MCP session's first call, bound to the
 * front's workspace and permission mode. On stdio (one MCP connection per process) that session is
 * the catalog session the front made at start; over HTTP every MCP session id gets one of its own.
 * Also routes the host's notifications about these sessions to them, and skips the questions
 * ({@code ask.request}) a bridged MCP server asks during their calls when the MCP client answers the cards.
 */
public final class FrontSessions {

    /** What the front does with a card of one of its calls (elicitation), or nothing (rpc approver). */
    @FunctionalInterface
    public interface Cards {
        void onCard(JsonNode card, InFlight call);
    }

    private final HostClient host;
    private final String workspace;
    private final String permissionMode;
    private final FrontSession catalog;
    private final boolean adoptCatalog;
    private final ConcurrentHashMap<String, FrontSession> byMcpSession = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, FrontSession> byHostSession = new ConcurrentHashMap<>();
    private volatile Cards cards;
    private volatile Runnable catalogChanged = () -> { };

    /**
     * @param adoptCatalog true on stdio: the one MCP session uses the catalog session
     */
    public FrontSessions(HostClient host, String workspace, String permissionMode, boolean adoptCatalog)
            throws HostError {
        this.host = host;
        this.workspace = workspace;
        this.permissionMode = permissionMode;
        this.adoptCatalog = adoptCatalog;
        this.catalog = FrontSession.create(host, workspace, permissionMode);
        byHostSession.put(catalog.sessionId(), catalog);
        host.listen(java.util.Set.of("permission.request", "ask.request", "tool.output", "tools.changed"),
                this::notification);
    }

    public void onCards(Cards c) {
        this.cards = c;
    }

    public void onCatalogChanged(Runnable r) {
        this.catalogChanged = r;
    }

    public FrontSession catalog() {
        return catalog;
    }

    /** The session of an MCP session, created on first use. */
    public FrontSession of(String mcpSessionId) throws HostError {
        String key = mcpSessionId == null ? "" : mcpSessionId;
        FrontSession s = byMcpSession.get(key);
        if (s != null) {
            return s;
        }
        synchronized (this) {
            s = byMcpSession.get(key);
            if (s == null) {
                s = adoptCatalog ? catalog : FrontSession.create(host, workspace, permissionMode);
                byHostSession.put(s.sessionId(), s);
                byMcpSession.put(key, s);
            }
            return s;
        }
    }

    /** A client's cancellation: on stdio (no session id) it names a request of the one session. */
    public void cancelled(String mcpSessionId, String requestKey) {
        Collection<FrontSession> targets = mcpSessionId == null
                ? (adoptCatalog ? List.of(catalog) : List.copyOf(byMcpSession.values()))
                : byMcpSession.containsKey(mcpSessionId) ? List.of(byMcpSession.get(mcpSessionId)) : List.of();
        targets.forEach(s -> s.cancel(requestKey));
    }

    /** An MCP session ended: its running calls are aborted; the pi-host session stays (its audit with it). */
    public void closed(String mcpSessionId) {
        FrontSession s = byMcpSession.remove(mcpSessionId);
        if (s != null) {
            s.abortAll();
        }
    }

    /** The front stops: every running call is aborted. */
    public void abortAll() {
        byHostSession.values().forEach(FrontSession::abortAll);
    }

    /** Calls running in all sessions. */
    public int running() {
        return byHostSession.values().stream().mapToInt(FrontSession::running).sum();
    }

    private void notification(String method, JsonNode params) {
        switch (method) {
            case "permission.request": {
                FrontSession s = byHostSession.get(params.path("sessionId").asText());
                Cards c = cards;
                if (s != null && c != null) {
                    c.onCard(params, s.inFlight(params.path("toolCallId").asText()));
                }
                break;
            }
            case "ask.request": {
                // a bridged MCP server's elicitation during one of the front's calls: the front relays cards
                // only, so nobody on the MCP side would answer it; skipped at once (the bridge declines it)
                // instead of holding the call until its budget ends. With --approver rpc (no cards here)
                // the JSON-RPC client answers it like a card.
                if (cards != null && byHostSession.containsKey(params.path("sessionId").asText())) {
                    ObjectNode skip = HostClient.params().put("requestId", params.path("requestId").asText());
                    ArrayNode answers = skip.putArray("answers");
                    params.path("questions").forEach(q -> answers.addNull());
                    host.send("asks.resolve", skip); // its answer is of no use: a late one means the ask ended
                }
                break;
            }
            case "tool.output": {
                FrontSession s = byHostSession.get(params.path("sessionId").asText());
                InFlight call = s == null ? null : s.inFlight(params.path("toolCallId").asText());
                if (call != null && call.progress() != null) {
                    call.progress().chunk(params.path("stream").asText(), params.path("chunk").asText());
                }
                break;
            }
            case "tools.changed":
                catalogChanged.run();
                break;
            default:
                break;
        }
    }
}
