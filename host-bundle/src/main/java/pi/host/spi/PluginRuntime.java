package pi.host.spi;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Implemented by the plugin runtime ({@code pi.host.plugins}); the host serves
 * {@code plugins.list/grant/revoke} from it. Calls return quickly.
 */
@ConsumerType
public interface PluginRuntime {

    /** Every plugin bundle the runtime tracks, with its state, in bundle id order. */
    List<PluginInfo> plugins();

    /**
     * The grants of {@code pluginId} changed: register its tools now if it is granted and valid,
     * unregister them now if it is not. Returns once the registrations follow the grant.
     */
    void grantsChanged(String pluginId);
}
