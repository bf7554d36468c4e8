package pi.host.mcpserver.internal.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.mcpserver.internal.session.FrontSession;
import reactor.core.publisher.Mono;

/**
 * What {@code tools/list} offers: the session's Agent catalog as {@code tools.list} gives it, with
 * the host's names, descriptions and schemas. Offered are the working builtins of {@link #BUILTINS}
 * and every plugin and MCP tool (deferred in the host, so activated in the catalog session first).
 * Not offered: the tools that need the desktop's runtime or UI (asktool, new_context, plan and goal
 * transitions, Task, ToolSearch, BrowserPreview) and the plugin author's kit; a call to one is an
 * unknown tool to the MCP client. A host {@code tools.changed} recomputes the list; every tool added,
 * changed or removed goes to the SDK, which sends {@code notifications/tools/list_changed}.
 */
public final class ToolCatalog {

    /** The builtins an MCP client gets (an allowlist: a new host tool is offered only once decided here). */
    public static final Set<String> BUILTINS = Set.of("Read", "Glob", "Grep", "Write", "Edit", "Bash", "TodoWrite");
    /** Rounds of activation per refresh: the on-demand list is bounded, each round activates what it shows. */
    private static final int MAX_ROUNDS = 16;

    private final FrontSession session;
    private final HostClient host;
    private final BiFunction<McpAsyncServerExchange, McpSchema.CallToolRequest, Mono<McpSchema.CallToolResult>> handler;
    private final Executor refresher;
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private final AtomicLong rounds = new AtomicLong();
    private final Map<String, McpSchema.Tool> offered = new LinkedHashMap<>();
    private volatile McpAsyncServer server;

    /**
     * @param session the catalog session: it lists the catalog and holds the activations the schemas need
     * @param refresher runs refreshes one at a time
     */
    public ToolCatalog(HostClient host, FrontSession session,
            BiFunction<McpAsyncServerExchange, McpSchema.CallToolRequest, Mono<McpSchema.CallToolResult>> handler,
            Executor refresher) {
        this.host = host;
        this.session = session;
        this.handler = handler;
        this.refresher = refresher;
    }

    /** The tools as the server starts with them (no list_changed for these). */
    public synchronized List<AsyncToolSpecification> initial() throws HostError {
        offered.clear();
        offered.putAll(compute());
        List<AsyncToolSpecification> specs = new ArrayList<>();
        offered.values().forEach(t -> specs.add(spec(t)));
        return specs;
    }

    /** From now on, changes go to this server. */
    public void attach(McpAsyncServer s) {
        this.server = s;
    }

    /** The host's catalog changed: recompute soon, once for any number of changes meanwhile. */
    public void changed() {
        if (refreshQueued.compareAndSet(false, true)) {
            refresher.execute(() -> {
                refreshQueued.set(false);
                try {
                    refresh();
                } catch (HostError | RuntimeException e) {
                    System.getLogger(ToolCatalog.class.getName()).log(System.Logger.Level.WARNING,
                            "the MCP tool list could not be refreshed", e);
                }
            });
        }
    }

    private synchronized void refresh() throws HostError {
        McpAsyncServer s = server;
        if (s == null) {
            return;
        }
        Map<String, McpSchema.Tool> next = compute();
        for (String name : new ArrayList<>(offered.keySet())) {
            McpSchema.Tool now = next.get(name);
            if (now == null || !now.equals(offered.get(name))) {
                s.removeTool(name).block();
                offered.remove(name);
            }
        }
        for (McpSchema.Tool t : next.values()) {
            if (!offered.containsKey(t.name())) {
                s.addTool(spec(t)).block();
                offered.put(t.name(), t);
            }
        }
    }

    /** The offered tools by name, activating in the catalog session what the schemas need. */
    private Map<String, McpSchema.Tool> compute() throws HostError {
        JsonNode listing = list();
        Set<String> tried = new java.util.HashSet<>();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean activated = false;
            for (JsonNode entry : listing.path("onDemand")) {
                String name = entry.path("name").asText();
                if (FrontSession.deferred(name) && tried.add(name)) {
                    long n = rounds.incrementAndGet();
                    session.activate(name, "mcp-catalog-" + n, "mcp-catalog-" + n);
                    activated = true;
                }
            }
            if (!activated) {
                break;
            }
            listing = list();
        }
        Map<String, McpSchema.Tool> tools = new LinkedHashMap<>();
        for (JsonNode t : listing.path("tools")) {
            String name = t.path("name").asText();
            if (BUILTINS.contains(name) || FrontSession.deferred(name)) {
                tools.put(name, tool(t));
            }
        }
        return tools;
    }

    private JsonNode list() throws HostError {
        return host.callOnCallingThread("tools.list", HostClient.params().put("sessionId", session.sessionId()));
    }

    @SuppressWarnings("unchecked")
    static McpSchema.Tool tool(JsonNode entry) {
        Map<String, Object> schema = HostClient.json().convertValue(entry.path("inputSchema"), Map.class);
        return McpSchema.Tool.builder().name(entry.path("name").asText())
                .description(entry.path("description").asText(""))
                .inputSchema(schema == null ? Map.of("type", "object") : schema)
                .meta(Map.of("pi-host/risk", entry.path("risk").asText("medium")))
                .build();
    }

    private AsyncToolSpecification spec(McpSchema.Tool t) {
        return AsyncToolSpecification.builder().tool(t).callHandler(handler).build();
    }
}
