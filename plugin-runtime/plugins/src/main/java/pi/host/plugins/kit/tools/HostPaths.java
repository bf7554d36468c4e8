package pi.host.plugins.kit.tools;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import pi.host.api.PluginTool;

/** Where this host keeps what the kit tools need: its data dir and the folder of its api jar. */
final class HostPaths {

    /** Set by the launcher (the host core reads the same property). */
    static final String DATA_DIR = "pi.host.data";
    /** Set by the launcher: the folder holding pi.host.api.jar. */
    static final String SDK = "pi.host.sdk";

    private HostPaths() {
    }

    static Optional<Path> dataDir(BundleContext context) {
        String dir = context.getProperty(DATA_DIR);
        return dir == null || dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir));
    }

    /**
     * The launcher's {@code pi.host.sdk}; without it (a test framework) the folder of the installed api
     * bundle when it was installed from a file.
     */
    static Path sdk(BundleContext context) {
        String dir = context.getProperty(SDK);
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        Bundle api = FrameworkUtil.getBundle(PluginTool.class);
        String location = api == null ? null : api.getLocation();
        if (location != null && location.startsWith("file:") && location.endsWith(".jar")) {
            return Path.of(URI.create(location)).getParent();
        }
        return null;
    }
}
