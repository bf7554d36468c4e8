package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.launcher.dropin.MarkingActivator;
import pi.host.launcher.dropin.MarkingTool;

/**
 * Issue 12.4 with the real process: no drop-in can rewire, restart or stop the host. Each kind is
 * dropped while the host serves: a fragment of a host bundle (which made the framework refresh the
 * host, so it stopped answering on stdio), a framework extension, a jar with a host bundle's name (with
 * its version FileInstall used to update the host bundle with the jar), an export standing in for a
 * host package, and malformed jars of every sort. After each the same process still answers, every
 * distribution bundle is still active under the same id, a builtin still works, no builtin tool was
 * withdrawn, and nothing of the jar ran.
 */
class DropInRewiringIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    @TempDir
    Path work;

    private Path plugins;
    private Path marker;

    @BeforeEach
    void paths() throws Exception {
        plugins = data.resolve("plugins");
        marker = work.resolve("ran.txt");
        Files.writeString(project.resolve("note.txt"), "still here\n");
    }

    /** The distribution's bundles: id to symbolic name, each checked to be active. */
    private static Map<Long, String> distribution(HostProcess host) throws Exception {
        Map<Long, String> ids = new HashMap<>();
        for (JsonNode b : host.startedInfo().get("bundles")) {
            if ("distribution".equals(b.get("origin").asText())) {
                String expected = b.get("fragment").asBoolean() ? "RESOLVED" : "ACTIVE";
                assertThat(b.get("state").asText()).as(b.toString()).isEqualTo(expected);
                ids.put(b.get("id").asLong(), b.get("symbolicName").asText());
            }
        }
        return ids;
    }

    /** Starts the host and returns it with a session, once it serves. */
    private HostProcess serving() throws Exception {
        HostProcess host = HostProcess.serve(data);
        host.call("session.create", "{\"projectRoot\":\"" + project + "\",\"permissionMode\":\"auto\"}");
        return host;
    }

    /** The host still answers, its own bundles are the same and active, Read works, no builtin went, nothing ran. */
    private void assertIntact(HostProcess host, Map<Long, String> before) throws Exception {
        String session = host.call("session.create", "{\"projectRoot\":\"" + project
                + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
        JsonNode read = host.tool(session, "r-" + System.nanoTime(), "Read", "{\"path\":\"note.txt\"}");
        assertThat(read.get("ok").asBoolean()).as(read.toString()).isTrue();
        assertThat(distribution(host)).isEqualTo(before);
        for (JsonNode m : host.messages()) {
            if ("tools.changed".equals(m.path("method").asText())) {
                assertThat(m.path("params").path("removed").toString()).as("a builtin was withdrawn: " + m)
                        .doesNotContain("\"Read\"");
            }
        }
        assertThat(marker).as("nothing of the drop-in ran").doesNotExist();
        assertThat(host.badLines()).isEmpty();
    }

    /** Pins: a fragment of pi.host.core made FileInstall refresh the host core, which then stopped answering. */
    @Test
    void aFragmentOfAHostBundleIsRefusedAndTheHostKeepsServing() throws Exception {
        try (HostProcess host = serving()) {
            Map<Long, String> before = distribution(host);
            DropInJar.plugin("org.example.fragment", "fragment", MarkingTool.class)
                    .header("Fragment-Host", "pi.host.core").marker(marker).dropInto(plugins, "fragment.jar");
            JsonNode record = DropInJar.awaitFile(host, "fragment.jar", "invalid");
            assertThat(DropInJar.names(record, "MANIFEST.MF: Fragment-Host")).as(record.toString()).isTrue();
            assertIntact(host, before);
        }
    }

    /** Pins: a framework extension dropped in was attached to the framework (its activator inside it). */
    @Test
    void aFrameworkExtensionIsRefusedAndNeverAttached() throws Exception {
        try (HostProcess host = serving()) {
            Map<Long, String> before = distribution(host);
            DropInJar.bundle("org.example.extension").header("Fragment-Host", "system.bundle; extension:=framework")
                    .header("ExtensionBundle-Activator", MarkingActivator.class.getName())
                    .withClass(MarkingActivator.class).marker(marker).dropInto(plugins, "extension.jar");
            JsonNode record = DropInJar.awaitFile(host, "extension.jar", "invalid");
            assertThat(DropInJar.names(record, "MANIFEST.MF: Fragment-Host")).as(record.toString()).isTrue();
            assertThat(DropInJar.names(record, "MANIFEST.MF: ExtensionBundle-Activator")).as(record.toString()).isTrue();
            assertIntact(host, before);
        }
    }

    /** Pins: a jar with pi.host.tools' name and version made FileInstall update the host's builtin tools with it. */
    @Test
    void aJarWithAHostBundlesNameAndVersionNeverReplacesIt() throws Exception {
        try (HostProcess host = serving()) {
            Map<Long, String> before = distribution(host);
            String version = versionOf(host, "pi.host.tools");
            DropInJar.plugin("pi.host.tools", "tools", version, MarkingTool.class).marker(marker)
                    .dropInto(plugins, "tools.jar");
            assertRefusedForItsName(DropInJar.awaitFile(host, "tools.jar", "invalid"), "pi.host.tools");
            assertIntact(host, before);
        }
    }

    /** Pins: a jar taking a host bundle's symbolic name could resolve in its place (a singleton clash). */
    @Test
    void aJarWithAHostBundlesNameIsNeverInstalled() throws Exception {
        try (HostProcess host = serving()) {
            Map<Long, String> before = distribution(host);
            DropInJar.plugin("pi.host.core", "core", "9.9.9", MarkingTool.class).marker(marker)
                    .dropInto(plugins, "core.jar");
            assertRefusedForItsName(DropInJar.awaitFile(host, "core.jar", "invalid"), "pi.host.core");
            host.call("plugins.grant", "{\"pluginId\":\"core\",\"capability\":\"agent.tool.register\"}");
            assertThat(DropInJar.record(host, "core.jar").get("state").asText()).isEqualTo("invalid");
            assertIntact(host, before);
        }
    }

    /**
     * Pins: a jar named like a host bundle that starts after the plugin runtime (pi.host.jev), present at
     * start, kept that bundle from resolving (the refused jar, installed, broke the framework's resolve of
     * the real one): the host came up without JevClassify.
     */
    @Test
    void aJarNamedLikeALaterStartingHostBundleLeavesThatBundleStarting() throws Exception {
        Files.createDirectories(plugins);
        DropInJar.plugin("pi.host.jev", "jev", "9.9.9", MarkingTool.class).marker(marker).dropInto(plugins, "jev.jar");
        try (HostProcess host = serving()) {
            assertRefusedForItsName(DropInJar.awaitFile(host, "jev.jar", "invalid"), "pi.host.jev");
            Map<Long, String> distribution = distribution(host);
            assertThat(distribution).containsValue("pi.host.jev");
            assertThat(host.stderr()).doesNotContain("Error starting");
            assertIntact(host, distribution);
        }
    }

    /** Pins: a drop-in exporting a host library's package offered itself as that package's provider. */
    @Test
    void aJarExportingAPackageTheHostUsesIsRefused() throws Exception {
        try (HostProcess host = serving()) {
            Map<Long, String> before = distribution(host);
            DropInJar.plugin("org.example.shadow", "shadow", MarkingTool.class)
                    .header("Export-Package", "com.fasterxml.jackson.databind;version=\"2.99.0\"")
                    .marker(marker).dropInto(plugins, "shadow.jar");
            JsonNode record = DropInJar.awaitFile(host, "shadow.jar", "invalid");
            assertThat(DropInJar.names(record, "MANIFEST.MF: Export-Package")).as(record.toString()).isTrue();
            assertIntact(host, before);
        }
    }

    /** Pins: malformed jars (not a zip, no manifest, bad headers, a huge manifest, a zip bomb) must not hurt the host. */
    @Test
    void malformedJarsAreListedWithWhyAndTheHostKeepsServing() throws Exception {
        try (HostProcess host = serving()) {
            Map<Long, String> before = distribution(host);
            DropInJar.drop("PK\u0003\u0004 not really a zip".getBytes(StandardCharsets.UTF_8), plugins, "corrupt.jar");
            assertThat(DropInJar.awaitFile(host, "corrupt.jar", "invalid").get("problems").toString())
                    .contains("not a readable jar");

            DropInJar.withoutManifest().text("META-INF/pi-plugin.json", "{}").dropInto(plugins, "nomanifest.jar");
            assertThat(DropInJar.awaitFile(host, "nomanifest.jar", "invalid").get("problems").toString())
                    .contains("no manifest");

            DropInJar.plugin("org.example.badheaders", "badheaders", MarkingTool.class)
                    .header("Bundle-SymbolicName", "org.example.badheaders;singleton:=maybe;singleton:=true")
                    .marker(marker).dropInto(plugins, "badheaders.jar");
            DropInJar.awaitFile(host, "badheaders.jar", "invalid");

            DropInJar.plugin("org.example.huge", "huge", MarkingTool.class)
                    .header("X-Padding", "x".repeat(2 * 1024 * 1024)).marker(marker).dropInto(plugins, "huge.jar");
            assertThat(DropInJar.awaitFile(host, "huge.jar", "invalid").get("problems").toString())
                    .contains("the manifest is larger than 512 KiB");

            DropInJar.plugin("org.example.bomb", "bomb", MarkingTool.class)
                    .entry("META-INF/pi-plugin.json", " ".repeat(40 * 1024 * 1024).getBytes(StandardCharsets.UTF_8))
                    .marker(marker).dropInto(plugins, "bomb.jar");
            assertThat(DropInJar.awaitFile(host, "bomb.jar", "invalid").get("problems").toString())
                    .contains("larger than 32 MiB");

            DropInJar.drop(emptyZip(), plugins, "empty.jar");
            DropInJar.awaitFile(host, "empty.jar", "invalid");
            assertIntact(host, before);

            // and a good plugin dropped after all of them still works
            DropInJar.plugin("org.example.fine", "fine", MarkingTool.class).dropInto(plugins, "fine.jar");
            DropInJar.awaitFile(host, "fine.jar", "awaiting-grant");
        }
    }

    /** Replacing a refused jar with a good one under the same name installs the good one. */
    @Test
    void aRefusedJarReplacedByAGoodOneIsInstalled() throws Exception {
        try (HostProcess host = serving()) {
            DropInJar.plugin("org.example.later", "later", MarkingTool.class).header("Fragment-Host", "pi.host.core")
                    .dropInto(plugins, "later.jar");
            DropInJar.awaitFile(host, "later.jar", "invalid");
            DropInJar.plugin("org.example.later", "later", MarkingTool.class).dropInto(plugins, "later.jar");
            JsonNode record = DropInJar.awaitFile(host, "later.jar", "awaiting-grant");
            assertThat(record.get("bundleId").asLong()).isPositive();
            Files.delete(plugins.resolve("later.jar"));
            await("later.jar gone").atMost(DropInJar.BOUND).until(() -> DropInJar.record(host, "later.jar") == null);
        }
    }

    /** Refused before install (no bundle), for its symbolic name, with the fix. */
    private static void assertRefusedForItsName(JsonNode record, String name) {
        assertThat(record.get("bundleId").asLong()).as(record.toString()).isEqualTo(-1);
        assertThat(DropInJar.names(record, "MANIFEST.MF: Bundle-SymbolicName")).as(record.toString()).isTrue();
        assertThat(record.get("problems").toString()).contains("the symbolic name " + name + " is bundle ")
                .contains("give the plugin a Bundle-SymbolicName of its own");
    }

    private static String versionOf(HostProcess host, String symbolicName) throws Exception {
        for (JsonNode b : host.startedInfo().get("bundles")) {
            if (symbolicName.equals(b.get("symbolicName").asText())) {
                return b.get("version").asText();
            }
        }
        throw new AssertionError("no bundle " + symbolicName);
    }

    private static byte[] emptyZip() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("nothing/"));
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }
}
