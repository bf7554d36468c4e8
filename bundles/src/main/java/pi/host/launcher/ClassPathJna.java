package pi.host.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The JNA on the launcher's class path ({@code pi-host/bundle/jna.jar}, the one {@link Undumpable}
 * already loaded for {@code prctl}) offered to the bundles through the system bundle, so the host's
 * bundles wire to that one copy instead of loading JNA a second time from the bundle of the same jar:
 * one set of its classes, one native library, one Cleaner thread (docs/performance-log.md, branch
 * {@code idle4}). The packages and versions are the jar's own {@code Export-Package}, so the bundles
 * see exactly what the bundle would have exported. Plugins cannot import it (the drop-in validator
 * allows only {@code pi.host.api} and the JDK), and the wiring guard lets host bundles wire to the
 * system bundle as to any host bundle.
 */
final class ClassPathJna {

    private ClassPathJna() {
    }

    /** The {@code Export-Package} of the class path's JNA jar, or null when there is none to offer. */
    static String exports(Path assembly) {
        Path jar = assembly.resolve("bundle").resolve("jna.jar");
        if (!Files.isRegularFile(jar)) {
            return null;
        }
        try (JarFile file = new JarFile(jar.toFile(), false)) {
            Manifest manifest = file.getManifest();
            String exports = manifest == null ? null : manifest.getMainAttributes().getValue("Export-Package");
            return exports == null || exports.isBlank() ? null : exports.strip();
        } catch (IOException e) {
            return null; // then the bundle of the same jar provides JNA, as before
        }
    }
}
