package pi.host.core.internal.info;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.origin.BundleOrigin;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.store.StoreComponent;

/** {@code host.info} and {@code host.shutdown}. */
@Component(service = HostMethods.class)
public final class HostMethods {

    /** The RPC contract's version; bumped when a field is renamed or removed (PROTOCOL.md). */
    public static final int PROTOCOL_VERSION = 1;

    private final BundleContext context;
    private final HostLifecycle lifecycle;
    private final StoreComponent store;
    private final BundleOrigin origin;
    private final StartupGate startup;
    private final RuntimeInfo runtime;

    @Activate
    public HostMethods(BundleContext context, @Reference HostLifecycle lifecycle, @Reference StoreComponent store,
            @Reference BundleOrigin origin, @Reference StartupGate startup) {
        this.context = context;
        this.lifecycle = lifecycle;
        this.store = store;
        this.origin = origin;
        this.startup = startup;
        this.runtime = new RuntimeInfo(System.getProperty("java.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
                System.getProperty("java.vm.info"), context.getProperty(JVM_CHOICE));
    }

    /** The property bin/pi-host sets to say which java and start-up archive it chose (bin/jvm.sh). */
    public static final String JVM_CHOICE = "pi.host.jvm.choice";

    /**
     * A bundle as host.info reports it. A fragment (a plugin may bring one) is
     * never ACTIVE: attached to its host it stays RESOLVED, so clients check {@code fragment}.
     * {@code origin} is {@code distribution} for the host's own bundles (as the launcher recorded
     * them) and {@code third-party} for every other: a symbolic name says nothing about whose a bundle is.
     */
    public record BundleInfo(long id, String symbolicName, String version, String state, boolean fragment,
            String origin) {
    }

    /**
     * The JVM the host runs on: its release, the VM and its mode ({@code java.vm.info}, which says
     * "sharing" when class data sharing is mapped), and what {@code bin/pi-host} chose (the java and its
     * start-up archive, bin/jvm.sh), or null when the host was started otherwise.
     */
    public record RuntimeInfo(String java, String vm, String vmInfo, String choice) {
    }

    /**
     * The host.info result. {@code ready} is false while the bundles that start after the first answer
     * are still starting (StartupGate): requests other than host.info wait for them.
     */
    public record Info(int protocolVersion, String hostVersion, int schemaVersion, boolean ready, RuntimeInfo runtime,
            List<BundleInfo> bundles) {
    }

    public void register(MethodTable table) {
        table.put("host.info", (params, caller) -> info());
        table.putControl("host.shutdown", (params, caller) -> {
            lifecycle.requestShutdown("host.shutdown requested by the client");
            return Map.of();
        });
    }

    /** The host.info answer. */
    public Info info() {
        List<BundleInfo> bundles = new ArrayList<>();
        for (Bundle b : context.getBundles()) {
            boolean fragment = (b.adapt(org.osgi.framework.wiring.BundleRevision.class).getTypes()
                    & org.osgi.framework.wiring.BundleRevision.TYPE_FRAGMENT) != 0;
            bundles.add(new BundleInfo(b.getBundleId(), b.getSymbolicName(), b.getVersion().toString(), state(b),
                    fragment, origin.describe(b)));
        }
        return new Info(PROTOCOL_VERSION, context.getBundle().getVersion().toString(),
                store.database().schemaVersion(), startup.ready(), runtime, bundles);
    }

    static String state(Bundle b) {
        switch (b.getState()) {
            case Bundle.ACTIVE:
                return "ACTIVE";
            case Bundle.RESOLVED:
                return "RESOLVED";
            case Bundle.INSTALLED:
                return "INSTALLED";
            case Bundle.STARTING:
                return "STARTING";
            case Bundle.STOPPING:
                return "STOPPING";
            default:
                return "UNINSTALLED";
        }
    }
}
