package pi.host.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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

    /**
     * Creates the data dir when it is missing, owner-only (it holds the audit trail, saved secrets and
     * session scratch), for commands that write into it before the host starts.
     */
    static void ensure(Path dataDir) throws IOException {
        if (!Files.isDirectory(dataDir)) {
            Files.createDirectories(dataDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }
}
