package pi.host.core.internal.catalog;

import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;

/**
 * {@code ToolSearch} (spec §2.1): finds deferred tools of the session's mode (those it is offered) by exact name or by a
 * capability query and activates them, so their schemas are sent with the next model request. It
 * never runs a workspace operation. A host-owned tool, it is called through the one pipeline like
 * every other; it registers its service itself because the registry it is listed by is one of the
 * things it reads (a DS-managed service would make the two wait for each other).
 */
@Component(service = {})
public final class ToolSearchTool implements ToolProvider {

    private final Catalog catalog;
    private final Activations activations;
    private final SessionService sessions;
    private final ServiceRegistration<ToolProvider> registration;

    @Activate
    public ToolSearchTool(BundleContext context, @Reference Catalog catalog, @Reference Activations activations,
            @Reference SessionService sessions) {
        this.catalog = catalog;
        this.activations = activations;
        this.sessions = sessions;
        Dictionary<String, Object> props = new Hashtable<>();
        props.put(Tool.NAME, "ToolSearch");
        props.put(Tool.RISK, Risk.LOW.wire());
        props.put(Tool.TIMEOUT_MS, 10_000L);
        props.put(pi.host.spi.Builtin.KIND, pi.host.spi.ToolKind.CONTROL.name());
        this.registration = context.registerService(ToolProvider.class, this, props);
    }

    @Deactivate
    private void deactivate() {
        registration.unregister();
    }

    @Override
    public String description() {
        return "Find on-demand tools by exact name or by what they do, and make them available from the next"
                + " turn. Returns the tools it activated.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\",\"minLength\":1,"
                + "\"maxLength\":200,\"description\":\"An exact tool name, or words describing the capability\"}},"
                + "\"required\":[\"query\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) throws Exception {
        SessionRecord session = sessions.find(call.sessionId()).orElse(null);
        OperatingMode mode = session == null ? null : OperatingMode.parse(session.mode()).orElse(null);
        if (mode == null) {
            return ToolResult.error(ErrorCode.SESSION_NOT_FOUND, "the session is gone or its mode is unknown");
        }
        List<ToolSearch.Candidate> candidates = new ArrayList<>();
        for (RegisteredTool t : catalog.deferred(mode, session)) {
            candidates.add(new ToolSearch.Candidate(t.name(), catalog.summary(t) + " "
                    + catalog.describe(t).description()));
        }
        String query = (String) call.arguments().get("query");
        List<String> found = ToolSearch.search(query, candidates);
        activations.activate(call.sessionId(), found);
        StringBuilder text = new StringBuilder();
        if (found.isEmpty()) {
            text.append("No on-demand tool matches '").append(query).append("'.");
        } else {
            text.append("Available from the next turn:");
            for (String name : found) {
                text.append("\n- ").append(name);
            }
        }
        return ToolResult.builder().text(text.toString()).detail("addedToolNames", found).build();
    }
}
