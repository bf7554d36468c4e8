package pi.host.it;

import static org.ops4j.pax.tinybundles.TinyBundles.bundle;
import static org.ops4j.pax.tinybundles.TinyBundles.rawBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import pi.host.it.provider.ActionTool;
import pi.host.it.provider.EchoTool;
import pi.host.it.provider.ProviderActivator;

/**
 * Throw-away plugin bundles, built with TinyBundles from the classes in {@code pi.host.it.provider}.
 *
 * <p>They are built outside the container (in a test's {@code @Configuration}, which Pax Exam runs
 * in the driver) and written to a directory the in-container test installs them from at run time.
 * Building inside the container would need TinyBundles there, which imports bndlib 5.x even for its
 * raw builder; the driver has it on the class path already.
 */
public final class ProviderBundles {

    /** System property (set by Failsafe) naming the directory the bundles are written to. */
    public static final String DIRECTORY = "pi.host.it.bundles";

    private ProviderBundles() {
    }

    /**
     * Writes a provider bundle registering one tool named {@code toolName}, and returns the
     * location to install it from.
     */
    public static String write(String symbolicName, String toolName) {
        return write(symbolicName, toolName, java.util.Map.of());
    }

    /**
     * Writes a provider bundle whose tool is further described by {@code headers} (see
     * {@link ProviderActivator}'s header names), and returns the location to install it from.
     */
    public static String write(String symbolicName, String toolName, java.util.Map<String, String> headers) {
        Path jar = directory().resolve(symbolicName + ".jar");
        // the raw builder writes exactly these headers: no bnd analysis, so the imports are the ones stated
        org.ops4j.pax.tinybundles.TinyBundle b = bundle()
                .setHeader("Bundle-ManifestVersion", "2")
                .symbolicName(symbolicName)
                .setHeader("Bundle-Version", "1.0.0")
                .activator(ProviderActivator.class)
                .addClass(EchoTool.class)
                .addClass(ActionTool.class)
                .setHeader("Import-Package", "org.osgi.framework, pi.host.api;version=\"[0.1,1)\"")
                .setHeader(ProviderActivator.TOOL_NAME_HEADER, toolName);
        headers.forEach(b::setHeader);
        try (InputStream bytes = b.build(rawBuilder())) {
            Files.createDirectories(jar.getParent());
            Files.copy(bytes, jar, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jar, e);
        }
        return location(symbolicName);
    }

    /** Where {@link #write} put the bundle {@code symbolicName}. */
    public static String location(String symbolicName) {
        return directory().resolve(symbolicName + ".jar").toUri().toString();
    }

    private static Path directory() {
        String dir = System.getProperty(DIRECTORY);
        if (dir == null) {
            throw new IllegalStateException("system property " + DIRECTORY + " is not set (Failsafe sets it)");
        }
        return Paths.get(dir).toAbsolutePath().normalize();
    }
}
