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
import pi.host.it.plugin.SideEffects;

/**
 * Throw-away bundles, built with TinyBundles: plugins (a descriptor and {@code pi.host.api.PluginTool}
 * classes from {@code pi.host.it.plugin}) and bundles that register a {@code ToolProvider} themselves
 * (classes in {@code pi.host.it.provider}: the MCP bridge's stand-in, and the direct registration the
 * registry refuses).
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
        return save(symbolicName, b);
    }

    /**
     * Writes a bundle with exactly these headers (besides the manifest version, symbolic name and
     * version 1.0.0) and classes, as {@code <file>.jar}, and returns its location.
     */
    public static String raw(String file, String symbolicName, java.util.Map<String, String> headers,
            Class<?>... classes) {
        org.ops4j.pax.tinybundles.TinyBundle b = bundle()
                .setHeader("Bundle-ManifestVersion", "2")
                .symbolicName(symbolicName)
                .setHeader("Bundle-Version", "1.0.0");
        headers.forEach(b::setHeader);
        for (Class<?> c : classes) {
            b.addClass(c);
        }
        return save(file, b);
    }

    /** Builds the bundle into {@code <directory>/<symbolicName>.jar} and returns its location. */
    private static String save(String symbolicName, org.ops4j.pax.tinybundles.TinyBundle b) {
        Path jar = directory().resolve(symbolicName + ".jar");
        try (InputStream bytes = b.build(rawBuilder())) {
            Files.createDirectories(jar.getParent());
            Files.copy(bytes, jar, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jar, e);
        }
        return location(symbolicName);
    }

    /**
     * Writes a plugin bundle as the contract describes it: the {@code Pi-Plugin} header, the descriptor
     * {@code META-INF/pi-plugin.json}, the given tool classes (plus {@link SideEffects}), and an
     * Import-Package of pi.host.api alone (or {@code imports} when given); returns the location.
     */
    public static String plugin(String symbolicName, String version, String descriptorJson, String imports,
            Class<?>... classes) {
        org.ops4j.pax.tinybundles.TinyBundle b = bundle()
                .setHeader("Bundle-ManifestVersion", "2")
                .symbolicName(symbolicName)
                .setHeader("Bundle-Version", version)
                .setHeader("Import-Package", imports != null ? imports : "pi.host.api;version=\"[0.2,1)\"")
                .setHeader("Pi-Plugin", "META-INF/pi-plugin.json")
                .addResource("META-INF/pi-plugin.json",
                        new java.io.ByteArrayInputStream(descriptorJson.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .addClass(SideEffects.class);
        for (Class<?> c : classes) {
            b.addClass(c);
        }
        return save(symbolicName, b);
    }

    /** The written bundle {@code symbolicName} as a file (to copy into a drop-in folder). */
    public static Path file(String symbolicName) {
        return directory().resolve(symbolicName + ".jar");
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
