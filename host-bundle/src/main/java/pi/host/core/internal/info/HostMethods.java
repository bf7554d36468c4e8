package pi.host.core.internal.info;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.rpc.MethodTable;

/** {@code host.info} and {@code host.shutdown}. */
@Component(service = HostMethods.class)
public final class HostMethods {

    /** The RPC contract's version; bumped when a field is renamed or removed (PROTOCOL.md). */
    public static final int PROTOCOL_VERSION = 1;

    private final BundleContext context;
    private final HostLifecycle lifecycle;

    @Activate
    public HostMethods(BundleContext context, @Reference HostLifecycle lifecycle) {
        this.context = context;
        this.lifecycle = lifecycle;
    }

    /** A bundle as host.info reports it. */
    public record BundleInfo(long id, String symbolicName, String version, String state) {
    }

    /** The host.info result. */
    public record Info(int protocolVersion, String hostVersion, int schemaVersion, List<BundleInfo> bundles) {
    }

    public void register(MethodTable table) {
        table.put("host.info", (params, caller) -> info());
        table.put("host.shutdown", (params, caller) -> {
            lifecycle.requestShutdown("host.shutdown requested by the client");
            return Map.of();
        });
    }

    Info info() {
        List<BundleInfo> bundles = new ArrayList<>();
        for (Bundle b : context.getBundles()) {
            bundles.add(new BundleInfo(b.getBundleId(), b.getSymbolicName(), b.getVersion().toString(), state(b)));
        }
        return new Info(PROTOCOL_VERSION, context.getBundle().getVersion().toString(), 0, bundles);
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
