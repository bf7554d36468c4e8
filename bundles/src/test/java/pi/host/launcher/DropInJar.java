package pi.host.launcher;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import pi.host.launcher.dropin.Marker;

/**
 * A jar for a host's drop-in folder, built in the test: any manifest headers (or none), entries and
 * compiled test classes (from {@code pi.host.launcher.dropin}). {@link #marker} makes the jar's code
 * able to show that it ran; {@link #dropInto} moves the finished jar into the folder in one rename,
 * so the host never sees half a file.
 */
final class DropInJar {

    static final Duration BOUND = Duration.ofSeconds(30);

    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Map<String, byte[]> entries = new LinkedHashMap<>();
    private boolean withManifest = true;

    /** A bundle: manifest version 2, the symbolic name, version 1.0.0. */
    static DropInJar bundle(String symbolicName) {
        return new DropInJar().header("Bundle-ManifestVersion", "2").header("Bundle-SymbolicName", symbolicName)
                .header("Bundle-Version", "1.0.0");
    }

    /** A valid plugin {@code id} 1.0.0 with the one tool {@code hello} implemented by {@code tool}. */
    static DropInJar plugin(String symbolicName, String id, Class<?> tool) {
        return plugin(symbolicName, id, "1.0.0", tool);
    }

    /** A valid plugin {@code id} (bundle and descriptor at {@code version}) with the one tool {@code hello}. */
    static DropInJar plugin(String symbolicName, String id, String version, Class<?> tool) {
        return bundle(symbolicName).header("Bundle-Version", version)
                .header("Import-Package", "pi.host.api;version=\"[0.2,1)\"")
                .header("Pi-Plugin", "META-INF/pi-plugin.json")
                .text("META-INF/pi-plugin.json", "{\"id\":\"" + id + "\",\"name\":\"Drop-in " + id + "\",\"version\":\""
                        + version + "\",\"agentTools\":[{\"name\":\"hello\",\"description\":\"Says hello\",\"class\":\""
                        + tool.getName() + "\",\"risk\":\"low\",\"inputSchema\":{\"type\":\"object\"}}]}")
                .withClass(tool);
    }

    /** A zip without any manifest. */
    static DropInJar withoutManifest() {
        DropInJar jar = new DropInJar();
        jar.withManifest = false;
        return jar;
    }

    DropInJar header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    DropInJar text(String path, String text) {
        return entry(path, text.getBytes(StandardCharsets.UTF_8));
    }

    DropInJar entry(String path, byte[] bytes) {
        entries.put(path, bytes);
        return this;
    }

    /** Copies a compiled test class into the jar. */
    DropInJar withClass(Class<?> type) {
        String name = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(name)) {
            return entry(name, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lets the jar's classes record that they ran, in {@code file} (see {@link Marker}). */
    DropInJar marker(Path file) {
        return text(Marker.ENTRY, file.toString()).withClass(Marker.class);
    }

    byte[] bytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream out = withManifest ? new JarOutputStream(bytes, manifest()) : new JarOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                out.putNextEntry(new JarEntry(e.getKey()));
                out.write(e.getValue());
                out.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private Manifest manifest() {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        headers.forEach(a::putValue);
        return m;
    }

    /** Puts the jar into the drop-in folder as {@code name}, in one rename. */
    void dropInto(Path plugins, String name) throws IOException {
        drop(bytes(), plugins, name);
    }

    /** Puts any bytes into the drop-in folder as {@code name}, in one rename. */
    static void drop(byte[] bytes, Path plugins, String name) throws IOException {
        Path tmp = plugins.resolve("." + name + ".part");
        Files.write(tmp, bytes);
        Files.move(tmp, plugins.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The plugins.list record of the drop-in file {@code name}, once it is in {@code state}. */
    static JsonNode awaitFile(HostProcess host, String name, String state) {
        return await(name + " " + state).atMost(BOUND).until(() -> record(host, name),
                r -> r != null && state.equals(r.get("state").asText()));
    }

    /** The plugins.list record of the drop-in file {@code name}, or null. */
    static JsonNode record(HostProcess host, String name) throws IOException {
        for (JsonNode p : host.call("plugins.list", "{}").get("plugins")) {
            if (name.equals(p.path("file").asText())) {
                return p;
            }
        }
        return null;
    }

    /** Whether any problem of the record is about {@code where} (e.g. {@code MANIFEST.MF: Bundle-Activator}). */
    static boolean names(JsonNode record, String where) {
        for (JsonNode p : record.get("problems")) {
            if (p.get("where").asText().contains(where)) {
                return true;
            }
        }
        return false;
    }
}
