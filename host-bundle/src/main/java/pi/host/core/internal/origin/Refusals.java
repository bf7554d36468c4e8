package pi.host.core.internal.origin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;

/**
 * The bundles the wiring guard refused and why, for {@code plugins.list}: each (bundle, reason) once,
 * the most recent {@value #MAX} kept, each new one logged. A resolver hook is called again for every
 * resolve attempt, so without the de-duplication one refused bundle would fill the list.
 */
public final class Refusals {

    static final int MAX = 200;

    /** One refused bundle: its id, name and location as the framework has them, and the rule it broke. */
    public record Refusal(long bundleId, String symbolicName, String location, String reason) {
    }

    private final Map<String, Refusal> byKey = new LinkedHashMap<>();

    void add(Bundle bundle, String reason) {
        if (bundle == null) {
            return;
        }
        String location;
        try {
            location = bundle.getLocation();
        } catch (IllegalStateException uninstalled) {
            location = "?";
        }
        Refusal r = new Refusal(bundle.getBundleId(), bundle.getSymbolicName(), location, reason);
        synchronized (byKey) {
            if (byKey.putIfAbsent(r.bundleId() + "\n" + reason, r) != null) {
                return;
            }
            if (byKey.size() > MAX) {
                byKey.remove(byKey.keySet().iterator().next());
            }
        }
        System.getLogger(WiringGuard.class.getName()).log(System.Logger.Level.WARNING,
                "refused to wire bundle {0} ({1}, {2}): it {3}", r.bundleId(), r.symbolicName(), location, reason);
    }

    /** Oldest first. */
    public List<Refusal> list() {
        synchronized (byKey) {
            return new ArrayList<>(byKey.values());
        }
    }
}
