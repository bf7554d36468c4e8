package pi.host.core.internal.registry;

import java.util.List;
import java.util.function.Function;
import pi.host.api.Risk;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.origin.BundleOrigin;
import pi.host.spi.ToolKind;

/** RegisteredTool records for unit tests of the pipeline's steps, as the registry would build them. */
public final class Registered {

    private Registered() {
    }

    /**
     * The launcher's record for registries under test: the bundles {@link #register} names after the
     * distribution's host bundles are the host's (their location is {@code test:<name>}), any other name is not.
     */
    public static final BundleOrigin ORIGIN = BundleOrigin.of("test:pi.host.tools test:pi.host.core"
            + " test:pi.host.plugins test:pi.host.mcp test:pi.host.jev");

    /** A provider with this schema whose calls {@code body} answers. */
    public static ToolProvider provider(String schema, Function<ToolCall, ToolResult> body) {
        return new ToolProvider() {
            @Override
            public String description() {
                return "a test tool";
            }

            @Override
            public String inputSchema() {
                return schema;
            }

            @Override
            public ToolResult execute(ToolCall call) {
                return body.apply(call);
            }
        };
    }

    /** An empty registry that takes the record above for the launcher's. */
    public static ToolRegistry registry() {
        return new ToolRegistry(new pi.host.core.internal.events.HostEvents(pi.host.core.internal.info.StartupGate.open()), ORIGIN);
    }

    /** A builtin with the given kind, risk, flags and preparation. */
    public static RegisteredTool builtin(String name, ToolKind kind, Risk risk, boolean mutates, Preparer preparer,
            ToolProvider provider) {
        return new RegisteredTool(name, name, name, ToolOrigin.BUILTIN, null, risk, true, List.of(), List.of(), false,
                "", new ToolFacts(kind, List.of(), false, false, preparer), mutates, 5_000, provider, 1,
                name.hashCode(), null, null);
    }

    /** A plugin tool (deferred, medium risk) with the given plan-safe actions. */
    public static RegisteredTool plugin(String name, List<String> actions, List<String> planSafe,
            ToolProvider provider) {
        return new RegisteredTool(name, name, name, ToolOrigin.PLUGIN, "p", Risk.MEDIUM, true, actions, planSafe, true,
                "", new ToolFacts(ToolKind.PLUGIN, List.of(), false, false, Preparer.none(name)), false, 5_000,
                provider, 2, name.hashCode(), null, null);
    }

    /**
     * Registers {@code provider} with the registry as the service of bundle {@code bsn} would, with
     * the given service properties; returns the service id it got.
     */
    public static long register(ToolRegistry registry, String bsn, ToolProvider provider, Object... kv) {
        java.util.Map<String, Object> props = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            props.put((String) kv[i], kv[i + 1]);
        }
        long id = NEXT_ID.incrementAndGet();
        props.put(org.osgi.framework.Constants.SERVICE_ID, id);
        org.osgi.framework.Bundle bundle = (org.osgi.framework.Bundle) java.lang.reflect.Proxy.newProxyInstance(
                Registered.class.getClassLoader(), new Class<?>[] {org.osgi.framework.Bundle.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSymbolicName" -> bsn;
                    case "getBundleId" -> 7L;
                    case "getLocation" -> "test:" + bsn;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        @SuppressWarnings("unchecked")
        org.osgi.framework.ServiceReference<ToolProvider> ref = (org.osgi.framework.ServiceReference<ToolProvider>)
                java.lang.reflect.Proxy.newProxyInstance(Registered.class.getClassLoader(),
                        new Class<?>[] {org.osgi.framework.ServiceReference.class}, (proxy, method, args) ->
                                switch (method.getName()) {
                                    case "getProperty" -> props.get((String) args[0]);
                                    case "getBundle" -> bundle;
                                    default -> throw new UnsupportedOperationException(method.getName());
                                });
        registry.bindTool(provider, ref);
        return id;
    }

    private static final java.util.concurrent.atomic.AtomicLong NEXT_ID = new java.util.concurrent.atomic.AtomicLong();

    /** The same tool as a new registration (another service id). */
    public static RegisteredTool again(RegisteredTool t) {
        return new RegisteredTool(t.name(), t.internalName(), t.localName(), t.origin(), t.owner(), t.risk(),
                t.declaredRiskValid(), t.actions(), t.planSafeActions(), t.deferred(), t.summary(), t.facts(),
                t.mutates(), t.timeoutMs(), t.provider(), t.bundleId(), t.serviceId() + 1, t.definitionHash(),
                t.annotations());
    }
}
