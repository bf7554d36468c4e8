package pi.host.core.internal.plugins;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import pi.host.api.ErrorCode;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.origin.Refusals;
import pi.host.core.internal.origin.WiringGuard;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.store.PluginGrantStore;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;
import pi.host.spi.GrantsUnavailableException;
import pi.host.spi.PluginHost;
import pi.host.spi.PluginInfo;
import pi.host.spi.PluginRuntime;

/**
 * {@code plugins.list/grant/revoke} (PROTOCOL.md), served from the plugin runtime that implements
 * {@link PluginRuntime}, and the host side of that SPI: the persisted grants and {@code plugins.changed}.
 * A grant is written before the runtime is told, a revoke likewise, so a tool is never registered
 * without a stored grant.
 */
@Component(service = {PluginMethods.class, PluginHost.class})
public final class PluginMethods implements PluginHost {

    /** The capabilities a user can grant a plugin. */
    static final List<String> CAPABILITIES = List.of(TOOL_REGISTER);

    private final PluginGrantStore grants;
    private final HostEvents events;
    private final Clock clock;
    private final java.util.function.Supplier<List<ToolRegistry.Diagnostic>> refusals;
    private final java.util.function.Supplier<List<Refusals.Refusal>> refusedBundles;

    private volatile PluginRuntime runtime;

    @Activate
    public PluginMethods(@Reference StoreComponent store, @Reference HostEvents events,
            @Reference ToolRegistry registry, @Reference WiringGuard guard) {
        this(new PluginGrantStore(store.database()), events, Clock.systemUTC(), registry::diagnostics,
                guard::refusals);
    }

    PluginMethods(PluginGrantStore grants, HostEvents events, Clock clock,
            java.util.function.Supplier<List<ToolRegistry.Diagnostic>> refusals,
            java.util.function.Supplier<List<Refusals.Refusal>> refusedBundles) {
        this.grants = grants;
        this.events = events;
        this.clock = clock;
        this.refusals = refusals;
        this.refusedBundles = refusedBundles;
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindRuntime(PluginRuntime r) {
        runtime = r;
    }

    void unbindRuntime(PluginRuntime r) {
        if (runtime == r) {
            runtime = null;
        }
    }

    public void register(MethodTable table) {
        // refusedTools: ToolProvider services the registry refused (a bundle registering one directly
        // learns here that plugins declare a Pi-Plugin descriptor instead); refusedBundles: bundles the
        // wiring guard kept from resolving (a fragment of a host bundle, a host bundle's name, ...)
        table.put("plugins.list", (p, c) -> Map.of("plugins", plugins(), "refusedTools", refusals.get(),
                "refusedBundles", refusedBundles.get()));
        table.put("plugins.grant", (p, c) -> change(p, true));
        table.put("plugins.revoke", (p, c) -> change(p, false));
    }

    private List<PluginInfo> plugins() {
        PluginRuntime r = runtime;
        return r == null ? List.of() : r.plugins();
    }

    private Object change(Params p, boolean grant) throws RpcException {
        String pluginId = p.requireString("pluginId");
        String capability = p.requireString("capability");
        if (!CAPABILITIES.contains(capability)) {
            throw RpcException.invalidParams(ErrorCode.INVALID_ARGUMENT, "unknown capability '" + capability
                    + "'; a plugin can be granted " + CAPABILITIES);
        }
        Optional<PluginInfo> plugin = find(pluginId);
        try {
            if (grant) {
                if (plugin.isEmpty()) {
                    throw unknown(pluginId);
                }
                grants.grant(pluginId, capability, clock.millis());
            } else if (!grants.revoke(pluginId, capability) && plugin.isEmpty()) {
                throw unknown(pluginId);
            }
        } catch (StorageException e) {
            throw RpcException.storage(e);
        }
        PluginRuntime r = runtime;
        if (r != null) {
            r.grantsChanged(pluginId); // registers or unregisters before we answer
        }
        Optional<PluginInfo> after = find(pluginId);
        return after.isPresent() ? Map.of("plugin", after.get()) : Map.of("pluginId", pluginId, "granted", grant);
    }

    private Optional<PluginInfo> find(String pluginId) {
        return plugins().stream().filter(i -> i.id().equals(pluginId)).findFirst();
    }

    private static RpcException unknown(String pluginId) {
        return RpcException.invalidParams(ErrorCode.INVALID_ARGUMENT, "no plugin '" + pluginId
                + "' is installed (plugins.list shows the installed plugins and their ids)");
    }

    @Override
    public boolean granted(String pluginId, String capability) throws GrantsUnavailableException {
        try {
            return grants.capabilities(pluginId).contains(capability);
        } catch (StorageException e) {
            throw new GrantsUnavailableException("the plugin grants cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public void pluginsChanged(String pluginId, long bundleId, String state) {
        events.publish("plugins.changed", Map.of("pluginId", pluginId, "bundleId", bundleId, "state", state));
    }
}
