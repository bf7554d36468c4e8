package pi.host.mcp.internal.tools;

import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;
import pi.host.mcp.internal.server.McpServer;

/**
 * The {@link ToolProvider} services of every server's tools, registered with the bridge's own bundle
 * context: the host's registry names them {@code mcp_<server>_<tool>} from {@code pi.mcp.server} and
 * {@code pi.tool.name}. A tool whose definition changed is registered anew (a new service, so the host
 * reads its description and schema again), one that went away is unregistered.
 */
public final class ToolRegistrations implements McpServer.ToolSink {

    /** The service properties the host's registry reads for MCP tools (docs/architecture.md). */
    static final String SERVER = "pi.mcp.server";
    static final String DEFINITION_HASH = "pi.mcp.definitionHash";
    static final String ANNOTATIONS = "pi.mcp.annotations";

    private record Registered(ToolDefinition definition, ServiceRegistration<ToolProvider> registration) {
    }

    private final BundleContext context;
    private final Map<String, Map<String, Registered>> byServer = new ConcurrentHashMap<>();

    public ToolRegistrations(BundleContext context) {
        this.context = context;
    }

    @Override
    public void offer(McpServer server, List<ToolDefinition> tools) {
        synchronized (server) {
            Map<String, Registered> current = byServer.computeIfAbsent(server.id(), k -> new HashMap<>());
            Map<String, ToolDefinition> wanted = new HashMap<>();
            tools.forEach(t -> wanted.putIfAbsent(t.name(), t));
            current.entrySet().removeIf(e -> {
                ToolDefinition now = wanted.get(e.getKey());
                if (now != null && now.hash().equals(e.getValue().definition().hash())) {
                    return false;
                }
                unregister(e.getValue());
                return true;
            });
            for (ToolDefinition t : tools) {
                if (!current.containsKey(t.name())) {
                    current.put(t.name(), new Registered(t, context.registerService(ToolProvider.class,
                            new McpTool(server, t), properties(server, t))));
                }
            }
        }
    }

    @Override
    public void withdraw(McpServer server) {
        synchronized (server) {
            Map<String, Registered> current = byServer.remove(server.id());
            if (current != null) {
                current.values().forEach(ToolRegistrations::unregister);
            }
        }
    }

    private static Hashtable<String, Object> properties(McpServer server, ToolDefinition t) {
        Hashtable<String, Object> p = new Hashtable<>();
        p.put(Tool.NAME, t.name());
        p.put(SERVER, server.id());
        p.put(DEFINITION_HASH, t.hash());
        if (t.annotations() != null) {
            p.put(ANNOTATIONS, t.annotations());
        }
        if (!t.summary().isEmpty()) {
            p.put(Tool.SUMMARY, t.summary());
        }
        p.put(Tool.DEFERRED, Boolean.TRUE);
        p.put(Tool.TIMEOUT_MS, server.spec().timeoutMs());
        return p;
    }

    private static void unregister(Registered r) {
        try {
            r.registration().unregister();
        } catch (IllegalStateException alreadyGone) {
            // the bundle is stopping: the framework unregistered it
        }
    }
}
