package pi.host.launcher;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The libraries the launcher's class path shares with the bundles, offered through the system bundle:
 * every jar its {@code Class-Path} names under {@code pi-host/bundle/}, with that jar's own
 * {@code Export-Package}, so the bundles see exactly what the bundle of the same jar would have
 * exported. Two kinds are there (bundles/bnd.bnd):
 * <ul>
 * <li>JNA, which {@link Undumpable} loads for {@code prctl} before the framework exists: the bundles
 * wire to that one copy instead of loading JNA a second time from its bundle (one set of classes, one
 * native library, one Cleaner thread; docs/performance-log.md, branch {@code idle4});</li>
 * <li>slf4j-api and slf4j-simple: on the class path, slf4j-api's {@code ServiceLoader} finds
 * slf4j-simple through the application class loader, so the host needs no ServiceLoader mediator
 * (SPI Fly and its ASM, ~110 classes and a weaving hook that saw every class a bundle defined;
 * branch {@code idle11}). Not in bundles.list: those bundles require the mediator and would not resolve.</li>
 * </ul>
 * The framework's own jars ({@code pi-host/lib/}: Felix, picocli) are never offered. Plugins cannot
 * import any of it (the drop-in validator allows only {@code pi.host.api} and the JDK), and the wiring
 * guard lets host bundles wire to the system bundle as to any host bundle (docs/security.md). The
 * in-container tests and the JMH host, which have no launcher class path, install these jars as the
 * bundles they are, beside bundles.list's (they read the same Class-Path).
 */
final class ClassPathLibraries {

    /** Where the bundle set's jars are, relative to the launcher jar (the Class-Path entries' prefix). */
    static final String BUNDLE_DIR = "pi-host/bundle/";

    private ClassPathLibraries() {
    }

    /** The exports of the running launcher's class-path libraries, or null when there are none. */
    static String exports() {
        Path launcher = launcherJar();
        // no launcher jar: nothing to offer (the bundle of JNA is then the bundles' JNA)
        return launcher == null ? null : exports(launcher);
    }

    /** The running launcher's class-path libraries ({@link #jars(Path)}); none without a launcher jar. */
    static List<Path> jars() {
        Path launcher = launcherJar();
        return launcher == null ? List.of() : jars(launcher);
    }

    private static Path launcherJar() {
        try {
            return Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The {@code Export-Package} clauses of the libraries on {@code launcherJar}'s class path
     * ({@link #jars}), joined with commas, or null when none offers any.
     */
    static String exports(Path launcherJar) {
        List<String> clauses = new ArrayList<>();
        for (Path jar : jars(launcherJar)) {
            String exports = attribute(jar, "Export-Package");
            if (exports != null) {
                clauses.add(exports);
            }
        }
        return clauses.isEmpty() ? null : String.join(",", clauses);
    }

    /**
     * The jars under {@value #BUNDLE_DIR} that {@code launcherJar}'s {@code Class-Path} names, in its order
     * (none when it is not a jar, e.g. a class directory, or names none).
     */
    static List<Path> jars(Path launcherJar) {
        List<Path> jars = new ArrayList<>();
        for (String entry : classPath(launcherJar)) {
            if (entry.startsWith(BUNDLE_DIR)) {
                jars.add(launcherJar.resolveSibling(entry));
            }
        }
        return jars;
    }

    private static List<String> classPath(Path jar) {
        String value = attribute(jar, Attributes.Name.CLASS_PATH.toString());
        return value == null ? List.of() : List.of(value.split(" +"));
    }

    /** A main attribute of a jar's manifest, stripped, or null when the jar, the manifest or the value is missing. */
    private static String attribute(Path jar, String name) {
        if (!Files.isRegularFile(jar)) {
            return null;
        }
        try (JarFile file = new JarFile(jar.toFile(), false)) {
            Manifest manifest = file.getManifest();
            String value = manifest == null ? null : manifest.getMainAttributes().getValue(name);
            return value == null || value.isBlank() ? null : value.strip();
        } catch (IOException e) {
            return null; // unreadable: nothing offered from it
        }
    }
}
