package pi.host.core.internal.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import pi.host.core.internal.control.AskService;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.spi.McpHost;
import pi.host.spi.McpRuntime;
import pi.host.spi.McpServerInfo;

/**
 * {@code mcp.list} and {@code mcp.changed} (PROTOCOL.md), served from the MCP bridge that implements
 * {@link McpRuntime}, and the host side of that SPI. Each server record gets the names the registry
 * exposes for it and the tools the registry refused, so the list shows what the model can call.
 */
@Component(service = {McpMethods.class, McpHost.class})
public final class McpMethods implements McpHost {

    private final ToolRegistry registry;
    private final HostEvents events;
    private final FirstAnswer firstAnswer;
    private final AskService asks;

    private volatile McpRuntime runtime;

    @Activate
    public McpMethods(@Reference ToolRegistry registry, @Reference HostEvents events,
            @Reference FirstAnswer firstAnswer, @Reference AskService asks) {
        this.registry = registry;
        this.events = events;
        this.firstAnswer = firstAnswer;
        this.asks = asks;
    }

    // optional and dynamic: the bridge references McpHost, so a mandatory reference here would be a cycle
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindRuntime(McpRuntime r) {
        runtime = r;
    }

    void unbindRuntime(McpRuntime r) {
        if (runtime == r) {
            runtime = null;
        }
    }

    public void register(MethodTable table) {
        table.put("mcp.list", (p, c) -> Map.of("servers", view(servers())));
    }

    private List<McpServerInfo> servers() {
        McpRuntime r = runtime;
        return r == null ? List.of() : r.servers();
    }

    @Override
    public void serversChanged(List<McpServerInfo> servers) {
        events.publish("mcp.changed", Map.of("servers", view(servers)));
    }

    @Override
    public void afterFirstAnswer(Runnable action) {
        firstAnswer.then(action);
    }

    @Override
    public Optional<List<Object>> ask(String sessionId, String turnId, String toolCallId, List<Question> questions,
            Consumer<Runnable> onCancel) {
        ArrayNode asked = JsonNodeFactory.instance.arrayNode();
        for (Question q : questions) {
            ObjectNode o = asked.addObject().put("question", q.question());
            if (!q.options().isEmpty()) {
                ArrayNode options = o.putArray("options");
                q.options().forEach(options::add);
            }
            if (q.multiSelect()) {
                o.put("multiSelect", true);
            }
        }
        AskService.Answers answers = asks.ask(sessionId, turnId, toolCallId, asked, onCancel);
        if (answers.skipped()) {
            return Optional.empty();
        }
        List<Object> out = new ArrayList<>();
        for (JsonNode a : answers.values()) {
            if (a == null || a.isNull()) {
                out.add(null);
            } else if (a.isArray()) {
                List<String> many = new ArrayList<>();
                a.forEach(n -> many.add(n.asText()));
                out.add(many);
            } else {
                out.add(a.asText());
            }
        }
        return Optional.of(out);
    }

    /** The wire records: the bridge's view plus what the registry made of the server's tools. */
    private List<Map<String, Object>> view(List<McpServerInfo> servers) {
        List<RegisteredTool> tools = new ArrayList<>();
        for (RegisteredTool t : registry.all()) {
            if (t.origin() == ToolOrigin.MCP) {
                tools.add(t);
            }
        }
        List<ToolRegistry.Diagnostic> refusals = registry.diagnostics();
        List<Map<String, Object>> out = new ArrayList<>();
        for (McpServerInfo s : servers) {
            TreeSet<String> exposed = new TreeSet<>();
            TreeSet<String> registeredLocal = new TreeSet<>();
            for (RegisteredTool t : tools) {
                if (s.id().equals(t.owner())) {
                    exposed.add(t.name());
                    registeredLocal.add(t.localName());
                }
            }
            // the newest refusal of each offered tool that is not registered now
            Map<String, String> refused = new LinkedHashMap<>();
            for (ToolRegistry.Diagnostic d : refusals) {
                if (ToolRegistry.MCP_BUNDLE.equals(d.bundle()) && s.id().equals(d.owner())
                        && s.offered().contains(d.tool()) && !registeredLocal.contains(d.tool())) {
                    refused.put(d.tool(), d.reason());
                }
            }
            List<Map<String, String>> refusedTools = new ArrayList<>();
            refused.forEach((tool, reason) -> refusedTools.add(Map.of("tool", tool, "reason", reason)));
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("id", s.id());
            record.put("transport", s.transport());
            record.put("state", s.state());
            record.put("error", s.error());
            record.put("tools", List.copyOf(exposed));
            record.put("stderrTail", s.stderrTail());
            record.put("pid", s.pid());
            record.put("refusedTools", refusedTools);
            out.add(record);
        }
        return out;
    }
}
