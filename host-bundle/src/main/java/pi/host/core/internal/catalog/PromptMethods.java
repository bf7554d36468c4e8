package pi.host.core.internal.catalog;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;

/**
 * {@code prompt.begin}: a new user prompt clears the session's deferred activations and restores only
 * what its context proves, then applies a composer MCP selection. A selection that cannot be honoured
 * fails the call and changes nothing.
 */
@Component(service = PromptMethods.class)
public final class PromptMethods {

    private final Catalog catalog;
    private final Activations activations;
    private final SessionService sessions;
    private final ToolRegistry registry;

    @Activate
    public PromptMethods(@Reference Catalog catalog, @Reference Activations activations,
            @Reference SessionService sessions, @Reference ToolRegistry registry) {
        this.catalog = catalog;
        this.activations = activations;
        this.sessions = sessions;
        this.registry = registry;
    }

    public void register(MethodTable table) {
        table.put("prompt.begin", (p, c) -> begin(p));
    }

    private Map<String, Object> begin(Params p) throws RpcException {
        String id = p.requireString("sessionId");
        p.requireString("turnId");
        SessionRecord session;
        try {
            session = sessions.find(id).orElseThrow(
                    () -> RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND, "no session " + id));
        } catch (StorageException e) {
            throw RpcException.storage(e);
        }
        OperatingMode mode = OperatingMode.parse(session.mode()).orElse(null);
        if (mode == null) {
            activations.reset(id, Set.of()); // unknown mode: nothing deferred may stay active
            return Map.of("activatedTools", List.of());
        }
        Set<String> deferred = new HashSet<>();
        for (RegisteredTool t : catalog.deferred(mode, session)) {
            deferred.add(t.name());
        }
        Set<String> allowed = new HashSet<>();
        for (RegisteredTool t : catalog.admitted(mode, session)) {
            allowed.add(t.name());
        }
        Set<String> selected;
        try {
            selected = McpSelection.resolve(p.get("mcpSelection"), List.copyOf(registry.all()), allowed);
        } catch (McpSelection.Invalid e) {
            throw RpcException.invalidParams(e.code(), e.getMessage());
        }
        Set<String> next = new LinkedHashSet<>(ContextRestoration.restore(p.get("context"), deferred));
        next.addAll(selected);
        activations.reset(id, next);
        return Map.of("activatedTools", new TreeSet<>(next));
    }
}
