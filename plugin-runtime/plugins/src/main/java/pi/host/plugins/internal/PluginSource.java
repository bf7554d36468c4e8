package pi.host.plugins.internal;

import java.util.jar.Manifest;
import pi.host.plugins.check.ResourceReader;

/** A plugin bundle as the lifecycle sees it: its manifest, its entries, and (after the grant) its classes. */
interface PluginSource {

    long bundleId();

    String symbolicName();

    Manifest manifest();

    ResourceReader entries();

    /** Loads a class through the bundle's own class loader. */
    Class<?> loadClass(String name) throws ClassNotFoundException;

    /** Why the bundle does not resolve, or null when it does. */
    String unresolved();

    /** The file in the drop-in folder the runtime installed the bundle from, or null. */
    default String file() {
        return null;
    }
}
