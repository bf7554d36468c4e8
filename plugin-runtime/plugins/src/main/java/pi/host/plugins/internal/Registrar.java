package pi.host.plugins.internal;

import pi.host.api.ToolProvider;
import pi.host.plugins.check.ToolSpec;

/** Registers one adapter as a {@link ToolProvider} service (with the runtime's own BundleContext). */
@FunctionalInterface
interface Registrar {

    /** Registers the tool; closing the handle unregisters it (idempotent). */
    Registration register(String pluginId, ToolSpec spec, ToolProvider provider);

    /** An open registration. */
    interface Registration {
        void unregister();
    }
}
