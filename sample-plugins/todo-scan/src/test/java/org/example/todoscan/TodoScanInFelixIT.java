package org.example.todoscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import pi.host.api.PluginTool;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

/**
 * The packaged jar in a real OSGi framework (Felix) that offers nothing but the JDK and pi.host.api,
 * as the host does: the bundle must resolve and start, carry its descriptor, and its tool class must
 * load from the bundle and run.
 */
class TodoScanInFelixIT {

    @TempDir
    Path storage;
    @TempDir
    Path workspace;

    @Test
    void theBundleResolvesWithOnlyTheApiAndItsToolRuns() throws Exception {
        Framework felix = ServiceLoader.load(FrameworkFactory.class).findFirst().orElseThrow()
                .newFramework(Map.of(Constants.FRAMEWORK_STORAGE, storage.toString(),
                        Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT,
                        // the framework exports the api this test compiled against, so the fake call fits
                        Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, apiExport()));
        felix.start();
        try {
            Bundle plugin = felix.getBundleContext().installBundle(pluginJar().toUri().toString());
            plugin.start();
            assertEquals(Bundle.ACTIVE, plugin.getState(), "resolved with only pi.host.api and the JDK");
            String descriptor = plugin.getHeaders().get("Pi-Plugin");
            assertEquals("META-INF/pi-plugin.json", descriptor);
            assertNotNull(plugin.getEntry(descriptor), "the descriptor is inside the bundle");

            PluginTool tool = (PluginTool) plugin.loadClass("org.example.todoscan.TodoScanTool")
                    .getConstructor().newInstance();
            Files.writeString(workspace.resolve("Main.java"), "class Main {} // TODO name it\n");
            ToolResult r = tool.execute(new FakeToolCall(workspace, Map.of()));
            assertEquals("Main.java:1: class Main {} // TODO name it", String.join("\n", r.text()));
        } finally {
            felix.stop();
            felix.waitForStop(10_000);
        }
    }

    private static Path pluginJar() {
        Path jar = Path.of(System.getProperty("plugin.jar", "missing: run through mvn verify"));
        assertTrue(Files.isRegularFile(jar), "plugin jar " + jar);
        return jar;
    }

    /** The Export-Package header of the api on the test class path (a jar, or classes with their manifest). */
    private static String apiExport() throws Exception {
        Path api = Path.of(PluginTool.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Manifest manifest;
        if (Files.isDirectory(api)) {
            try (InputStream in = Files.newInputStream(api.resolve("META-INF/MANIFEST.MF"))) {
                manifest = new Manifest(in);
            }
        } else {
            try (JarFile jar = new JarFile(api.toFile())) {
                manifest = jar.getManifest();
            }
        }
        return manifest.getMainAttributes().getValue(Constants.EXPORT_PACKAGE);
    }
}
