package pi.host.core.internal.registry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.origin.BundleOrigin;

/**
 * The whiteboard of {@link ToolProvider} services: names each one (spec §11), applies the risk
 * defaults, refuses what would collide or shadow a builtin, and tells clients ({@code tools.changed})
 * when tools come and go. Nothing here is cached from activation: the map follows the services.
 */
// immediate: clients learn of tools through tools.changed, so the registry must track providers from
// the start; as a delayed component nothing that only listens would ever activate it
@Component(service = ToolRegistry.class, immediate = true)
public final class ToolRegistry {

    /**
     * The host bundles whose tools keep their builtin names: the builtin tools, the host itself for the
     * tools that work on its own state (ToolSearch), the plugin runtime for the plugin author's tools
     * and the Jev bundle for JevClassify (each of those two for its own names only, {@link #OWN_NAMES}).
     * These names count only for bundles {@link BundleOrigin} knows as the host's (from the launcher's
     * record), never for a bundle that merely calls itself so.
     */
    public static final java.util.Set<String> BUILTIN_BUNDLES = java.util.Set.of("pi.host.tools", "pi.host.core",
            "pi.host.plugins", "pi.host.jev");
    /** Symbolic name of the only host bundle that may register MCP tools. */
    public static final String MCP_BUNDLE = "pi.host.mcp";
    /** Symbolic name of the plugin runtime: the only host bundle that may register plugin tools. */
    public static final String PLUGINS_BUNDLE = "pi.host.plugins";
    /** Symbolic name of the Jev bundle: the provider operation JevClassify, its key and its HTTP client. */
    public static final String JEV_BUNDLE = "pi.host.jev";
    /** The builtin names the plugin runtime may register (and no other builtin name). */
    public static final java.util.Set<String> PLUGIN_TOOLING_NAMES = java.util.Set.of("PluginCheck",
            "PluginScaffold", "PluginPack");
    /**
     * Builtin names that belong to one host bundle: that bundle registers these and no other builtin
     * name, and no other bundle registers them. The rest of {@link ToolNaming#BUILTIN_NAMES} belongs to
     * the builtin tools and the host core.
     */
    public static final Map<String, java.util.Set<String>> OWN_NAMES = Map.of(
            PLUGINS_BUNDLE, PLUGIN_TOOLING_NAMES,
            JEV_BUNDLE, java.util.Set.of("JevClassify"));
    /** Service property naming the plugin a tool belongs to. */
    public static final String PLUGIN_ID = "pi.plugin.id";
    /** Service property naming the MCP server a bridged tool belongs to. */
    public static final String MCP_SERVER = "pi.mcp.server";
    /** Service property: hash of an MCP tool's definition (description, input schema, annotations). */
    public static final String MCP_DEFINITION_HASH = "pi.mcp.definitionHash";
    /** Service property: an MCP tool's annotations as the server declared them (JSON), shown on its card. */
    public static final String MCP_ANNOTATIONS = "pi.mcp.annotations";

    private static final int MAX_DIAGNOSTICS = 200;

    /**
     * A provider the registry refused, and why.
     *
     * @param owner the plugin id or MCP server id the provider declared, or null
     */
    public record Diagnostic(long bundleId, String bundle, String tool, String owner, String reason) {
    }

    private final HostEvents events;
    private final BundleOrigin bundleOrigin;
    private final Map<String, RegisteredTool> byName = new ConcurrentHashMap<>();
    private final Deque<Diagnostic> diagnostics = new ArrayDeque<>();

    @Activate
    public ToolRegistry(@Reference HostEvents events, @Reference BundleOrigin origin) {
        this.events = events;
        this.bundleOrigin = origin;
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindTool(ToolProvider provider, ServiceReference<ToolProvider> ref) {
        Bundle bundle = ref.getBundle();
        String bsn = bundle == null ? "?" : bundle.getSymbolicName();
        long bundleId = bundle == null ? -1 : bundle.getBundleId();
        Object rawName = ref.getProperty(Tool.NAME);
        String localName = rawName instanceof String ? (String) rawName : null;
        String owner = Optional.ofNullable(stringProperty(ref, MCP_SERVER)).orElse(stringProperty(ref, PLUGIN_ID));
        RegisteredTool tool;
        try {
            // trust follows the launcher's record: a bundle that is not the host's has no host name here
            tool = describe(provider, ref, bundleOrigin.hostBundleName(bundle), bsn, bundleId, localName);
        } catch (Refused e) {
            refuse(bundleId, bsn, localName, owner, e.getMessage());
            return;
        }
        RegisteredTool existing = byName.putIfAbsent(tool.name(), tool);
        if (existing != null) {
            refuse(bundleId, bsn, localName, owner, "tool name '" + tool.name() + "' is already registered by bundle "
                    + existing.bundleId() + (existing.owner() == null ? "" : " for " + existing.owner())
                    + "; the first registration stays");
            return;
        }
        events.publish("tools.changed", Map.of("added", List.of(tool.name()), "removed", List.of()));
    }

    void unbindTool(ToolProvider provider, ServiceReference<ToolProvider> ref) {
        long serviceId = (Long) ref.getProperty(Constants.SERVICE_ID);
        for (RegisteredTool tool : byName.values()) {
            if (tool.serviceId() == serviceId && byName.remove(tool.name(), tool)) {
                events.publish("tools.changed", Map.of("added", List.of(), "removed", List.of(tool.name())));
            }
        }
    }

    /** The tool exposed under exactly this name. */
    public Optional<RegisteredTool> find(String exposedName) {
        return Optional.ofNullable(byName.get(exposedName));
    }

    /** Every registered tool, in no particular order. */
    public Collection<RegisteredTool> all() {
        return List.copyOf(byName.values());
    }

    /** Refusals, oldest first (bounded). */
    public List<Diagnostic> diagnostics() {
        synchronized (diagnostics) {
            return new ArrayList<>(diagnostics);
        }
    }

    private RegisteredTool describe(ToolProvider provider, ServiceReference<ToolProvider> ref, String host,
            String bsn, long bundleId, String localName) throws Refused {
        String pluginId = stringProperty(ref, PLUGIN_ID);
        String mcpServer = stringProperty(ref, MCP_SERVER);
        // an MCP server names its tools as it likes: the exposed name is made safe, so only its length counts
        String nameProblem = mcpServer != null ? ToolNaming.checkMcpToolName(localName)
                : ToolNaming.checkLocalName(localName);
        if (nameProblem != null) {
            throw new Refused(nameProblem);
        }
        ToolOrigin origin;
        String owner;
        boolean claimsHostName = bsn != null && (BUILTIN_BUNDLES.contains(bsn) || MCP_BUNDLE.equals(bsn));
        if (host == null && (mcpServer != null || pluginId != null || claimsHostName)) {
            throw new Refused("bundle " + bsn + " is not one the launcher installed from the distribution, so it"
                    + " gets no host trust (builtin, MCP or plugin tools), whatever it is called or declares");
        }
        if (mcpServer != null) {
            if (!MCP_BUNDLE.equals(host)) {
                throw new Refused("only the MCP bridge (" + MCP_BUNDLE + ") may register MCP tools");
            }
            origin = ToolOrigin.MCP;
            owner = mcpServer;
        } else if (PLUGINS_BUNDLE.equals(host) && pluginId != null) {
            // a granted plugin's tool, registered by the runtime on the plugin's behalf: never a builtin's name
            origin = ToolOrigin.PLUGIN;
            owner = pluginId;
        } else if (host != null && BUILTIN_BUNDLES.contains(host) && pluginId == null) {
            if (!ToolNaming.BUILTIN_NAMES.contains(localName)) {
                throw new Refused("'" + localName + "' is not a reserved builtin name");
            }
            String reservedFor = ownerOf(localName);
            java.util.Set<String> own = OWN_NAMES.get(host);
            if (own != null && !own.contains(localName)) {
                throw new Refused("bundle " + host + " may register only " + new java.util.TreeSet<>(own) + " as builtins");
            }
            if (reservedFor != null && !reservedFor.equals(host)) {
                throw new Refused("'" + localName + "' is reserved for the host bundle " + reservedFor);
            }
            origin = ToolOrigin.BUILTIN;
            owner = null;
        } else {
            // plugins do not register services themselves: the runtime does, after validation and the grant
            throw new Refused("bundle " + bsn + " registered a ToolProvider service directly; plugin tools are"
                    + " registered only by the plugin runtime: declare the tool in a descriptor (manifest header"
                    + " 'Pi-Plugin: META-INF/pi-plugin.json'), implement pi.host.api.PluginTool, and grant the plugin"
                    + " agent.tool.register (see docs/plugin-guide.md)");
        }
        String exposed = ToolNaming.exposedName(origin, owner, localName);
        if (!ToolNaming.validExposedName(exposed)) {
            throw new Refused("exposed name '" + exposed + "' is longer than 64 characters or not plain ASCII");
        }
        Optional<Risk> declared = Risk.parse(ref.getProperty(Tool.RISK));
        // MCP servers' own risk claims are not trusted; plugins without a valid risk count as medium (§6)
        Risk risk = origin == ToolOrigin.MCP ? Risk.MEDIUM : declared.orElse(Risk.MEDIUM);
        List<String> actions = stringList(ref.getProperty(Tool.ACTIONS));
        List<String> planSafe = stringList(ref.getProperty(Tool.PLAN_SAFE_ACTIONS));
        if (!actions.containsAll(planSafe)) {
            throw new Refused("planSafeActions " + planSafe + " are not a subset of actions " + actions);
        }
        boolean deferred = origin != ToolOrigin.BUILTIN || flag(ref.getProperty(Tool.DEFERRED));
        String summary = Optional.ofNullable(stringProperty(ref, Tool.SUMMARY)).orElse("");
        boolean mutates = flag(ref.getProperty(Tool.MUTATES));
        long timeoutMs = Tool.DEFAULT_TIMEOUT_MS;
        Object timeout = ref.getProperty(Tool.TIMEOUT_MS);
        if (timeout != null) {
            try {
                timeoutMs = Long.parseLong(String.valueOf(timeout));
            } catch (NumberFormatException e) {
                throw new Refused("pi.tool.timeoutMs must be a number of milliseconds");
            }
            if (timeoutMs < 1 || timeoutMs > 24L * 3600 * 1000) {
                throw new Refused("pi.tool.timeoutMs must be between 1 ms and 24 h");
            }
        }
        // kind, aliases, batch rules, paths: declared by builtins, from the origin for everything else
        ToolFacts facts;
        try {
            facts = ToolFacts.read(origin, exposed, provider, ref);
        } catch (ToolFacts.Refusal e) {
            throw new Refused(e.getMessage());
        }
        long serviceId = (Long) ref.getProperty(Constants.SERVICE_ID);
        // what the user approves of an MCP tool: the rug-pull guard compares it, the card shows the annotations
        String definitionHash = origin == ToolOrigin.MCP ? stringProperty(ref, MCP_DEFINITION_HASH) : null;
        String annotations = origin == ToolOrigin.MCP ? stringProperty(ref, MCP_ANNOTATIONS) : null;
        if (origin == ToolOrigin.MCP && definitionHash == null) {
            throw new Refused("an MCP tool must carry its definition hash (" + MCP_DEFINITION_HASH + ")");
        }
        return new RegisteredTool(exposed, ToolNaming.internalName(origin, owner, localName), localName, origin,
                owner, risk, declared.isPresent(), actions, planSafe, deferred, summary, facts, mutates,
                timeoutMs, provider, bundleId, serviceId, definitionHash, annotations);
    }

    /** The host bundle a builtin name belongs to, or null for the names of the builtin tools and the core. */
    private static String ownerOf(String localName) {
        for (Map.Entry<String, java.util.Set<String>> e : OWN_NAMES.entrySet()) {
            if (e.getValue().contains(localName)) {
                return e.getKey();
            }
        }
        return null;
    }

    private void refuse(long bundleId, String bsn, String tool, String owner, String reason) {
        System.getLogger(ToolRegistry.class.getName()).log(System.Logger.Level.WARNING,
                "refused tool {0} of bundle {1}: {2}", tool, bsn, reason);
        synchronized (diagnostics) {
            if (diagnostics.size() == MAX_DIAGNOSTICS) {
                diagnostics.removeFirst();
            }
            diagnostics.addLast(new Diagnostic(bundleId, bsn, tool, owner, reason));
        }
    }

    static boolean flag(Object value) {
        return Boolean.TRUE.equals(value) || "true".equals(value);
    }

    static String stringProperty(ServiceReference<?> ref, String key) {
        Object v = ref.getProperty(key);
        return v instanceof String && !((String) v).isEmpty() ? (String) v : null;
    }

    static List<String> stringList(Object value) {
        if (value instanceof String) {
            return List.of((String) value);
        }
        if (value instanceof String[]) {
            return List.of((String[]) value);
        }
        if (value instanceof Collection) {
            List<String> out = new ArrayList<>();
            for (Object o : (Collection<?>) value) {
                if (o instanceof String) {
                    out.add((String) o);
                }
            }
            return List.copyOf(out);
        }
        return List.of();
    }

    /** A provider that cannot be registered. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason, null, false, false);
        }
    }
}
