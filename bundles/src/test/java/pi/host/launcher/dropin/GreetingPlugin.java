package pi.host.launcher.dropin;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** The drop-in test plugin {@code greet} (tool {@code plugin_greet_hello}, low risk), built as a jar. */
public final class GreetingPlugin {

    public static final String TOOL = "plugin_greet_hello";

    private GreetingPlugin() {
    }

    /** A plugin jar whose tool answers "hello <greeting>". */
    public static Path jar(Path staging, String version, String greeting) throws IOException {
        Manifest mf = new Manifest();
        Attributes a = mf.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", "org.example.greet");
        a.putValue("Bundle-Version", version);
        a.putValue("Import-Package", "pi.host.api;version=\"[0.2,1)\"");
        a.putValue("Pi-Plugin", "META-INF/pi-plugin.json");
        String descriptor = "{\"id\":\"greet\",\"name\":\"Greeter\",\"version\":\"" + version + "\",\"agentTools\":[{"
                + "\"name\":\"hello\",\"description\":\"Says hello\",\"class\":\"" + GreetingTool.class.getName()
                + "\",\"risk\":\"low\",\"inputSchema\":{\"type\":\"object\",\"properties\":{}}}]}";
        Path jar = staging.resolve("greet-" + version + ".jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, mf)) {
            put(out, "META-INF/pi-plugin.json", descriptor.getBytes(StandardCharsets.UTF_8));
            put(out, "greeting.txt", greeting.getBytes(StandardCharsets.UTF_8));
            String cls = GreetingTool.class.getName().replace('.', '/') + ".class";
            try (InputStream in = GreetingTool.class.getClassLoader().getResourceAsStream(cls)) {
                put(out, cls, in.readAllBytes());
            }
        }
        return jar;
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    /** Moves a finished jar into the folder in one step, so the watcher never sees half a file. */
    public static void drop(Path jar, Path plugins) throws IOException {
        Path tmp = plugins.resolve(".greet.jar.part");
        Files.copy(jar, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, plugins.resolve("greet.jar"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }
}
