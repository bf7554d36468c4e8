package pi.host.plugins.check;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Builds a plugin jar for a test: manifest headers, entries, and test classes copied as class files. */
public final class TestJar {

    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Map<String, byte[]> entries = new LinkedHashMap<>();

    /** A bundle with a Pi-Plugin header, importing pi.host.api [0.2,1), without a descriptor yet. */
    public static TestJar plugin() {
        return new TestJar()
                .header("Bundle-ManifestVersion", "2")
                .header("Bundle-SymbolicName", "org.example.plugin")
                .header("Bundle-Version", "1.0.0")
                .header("Import-Package", "pi.host.api;version=\"[0.2,1)\"")
                .header(PluginInspector.HEADER, PluginInspector.DEFAULT_DESCRIPTOR);
    }

    public TestJar header(String name, String value) {
        if (value == null) {
            headers.remove(name);
        } else {
            headers.put(name, value);
        }
        return this;
    }

    public TestJar entry(String path, String text) {
        entries.put(path, text.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    public TestJar entry(String path, byte[] bytes) {
        entries.put(path, bytes);
        return this;
    }

    public TestJar descriptor(String json) {
        return entry(PluginInspector.DEFAULT_DESCRIPTOR, json);
    }

    /** Copies a compiled test class into the jar under {@code prefix} ("" for the root). */
    public TestJar withClass(Class<?> type, String prefix) {
        String name = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(name)) {
            return entry(prefix + name, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public TestJar withClass(Class<?> type) {
        return withClass(type, "");
    }

    public Manifest manifest() {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        headers.forEach((k, v) -> m.getMainAttributes().putValue(k, v));
        return m;
    }

    /** The entries as the runtime reads them from a bundle. */
    public ResourceReader reader() {
        return path -> entries.get(path) == null ? null : entries.get(path).clone();
    }

    public byte[] bytes() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        write(out);
        return out.toByteArray();
    }

    public Path write(Path file) {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private void write(OutputStream out) {
        try (JarOutputStream jar = new JarOutputStream(out, manifest())) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                jar.putNextEntry(new JarEntry(e.getKey()));
                jar.write(e.getValue());
                jar.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
