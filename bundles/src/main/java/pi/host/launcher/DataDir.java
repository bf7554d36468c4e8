package pi.host.launcher;

import java.nio.file.Path;
import java.util.Map;

/** Where the host keeps its state: option, then {@code PI_HOST_DATA}, then the XDG data home. */
final class DataDir {

    private DataDir() {
    }

    static Path resolve(Path option, Map<String, String> env) {
        if (option != null) {
            return option.toAbsolutePath().normalize();
        }
        String explicit = env.get("PI_HOST_DATA");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit).toAbsolutePath().normalize();
        }
        String xdg = env.get("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
                ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".local", "share");
        return base.resolve("pi-host").toAbsolutePath().normalize();
    }
}
