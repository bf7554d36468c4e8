package pi.host.core.internal.origin;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * Which bundles are the host's own: the framework itself and the bundles the launcher installed from
 * the distribution's bundle set, as the launcher recorded them (the framework property {@value #RECORD}:
 * the location of each). Nothing a bundle declares about itself counts: its symbolic name, headers and
 * service properties are the bundle's to choose, its location is not (a drop-in's is its file in the
 * drop-in folder; Felix keeps one bundle per location). Among host bundles the symbolic name then says
 * which part of the host a bundle is, since the jar is the distribution's own.
 *
 * <p>No record, no host: without it this component does not activate, and nothing that depends on
 * it (the registry, and with it the RPC endpoint) does either, so a host started without the launcher's
 * record fails at start instead of trusting every bundle or none.
 */
@Component(service = BundleOrigin.class)
public final class BundleOrigin {

    /** The framework property the launcher writes (pi.host.launcher.DistributionRecord). */
    public static final String RECORD = "pi.host.distribution";

    private final Set<String> locations;

    @Activate
    public BundleOrigin(BundleContext context) {
        this(context.getProperty(RECORD));
    }

    /**
     * From the record's text: locations separated by white space. A factory, not a second public
     * constructor of one parameter: SCR takes a public constructor of the declared arity in reflection's
     * order, which is unspecified (SettingsService#over).
     */
    public static BundleOrigin of(String record) {
        return new BundleOrigin(record);
    }

    private BundleOrigin(String record) {
        if (record == null || record.isBlank()) {
            throw new IllegalStateException("the framework property " + RECORD + " (the launcher's record of the"
                    + " distribution's bundles) is missing: start the host with the pi-host launcher, which writes it;"
                    + " no bundle is trusted as the host's without it");
        }
        this.locations = Arrays.stream(record.strip().split("\\s+")).collect(Collectors.toUnmodifiableSet());
    }

    /** Whether {@code bundle} is the framework or a bundle the launcher installed from the distribution. */
    public boolean isHost(Bundle bundle) {
        if (bundle == null) {
            return false;
        }
        if (bundle.getBundleId() == 0) {
            return true;
        }
        try {
            return locations.contains(bundle.getLocation());
        } catch (IllegalStateException uninstalled) {
            return false;
        }
    }

    /**
     * The symbolic name of a host bundle (which part of the host it is), or null for the framework and
     * for every bundle that is not the host's, whatever it calls itself.
     */
    public String hostBundleName(Bundle bundle) {
        return bundle != null && bundle.getBundleId() != 0 && isHost(bundle) ? bundle.getSymbolicName() : null;
    }

    /** {@code distribution} for the host's bundles, {@code third-party} for all others (host.info). */
    public String describe(Bundle bundle) {
        return isHost(bundle) ? "distribution" : "third-party";
    }
}
