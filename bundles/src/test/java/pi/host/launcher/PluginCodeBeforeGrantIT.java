package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.launcher.dropin.MarkingActivator;
import pi.host.launcher.dropin.MarkingComponent;
import pi.host.launcher.dropin.MarkingTool;

/**
 * Issue 12.3 with the real process: no code of a drop-in runs before the user grants it
 * {@code agent.tool.register}. Each jar is dropped while the host serves; its code would record that
 * it ran in a marker file. A jar whose manifest would run code on its own (an activator, a DS
 * component, an extender's processing) or that is not a plugin is refused before it is installed,
 * with a problem naming the header; a valid plugin's tool class is first loaded by the grant.
 */
class PluginCodeBeforeGrantIT {

    private static final String DS_XML = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<scr:component xmlns:scr=\"http://www.osgi.org/xmlns/scr/v1.4.0\" name=\"mark\" immediate=\"true\">"
            + "<implementation class=\"" + MarkingComponent.class.getName() + "\"/></scr:component>\n";

    @TempDir
    Path data;
    @TempDir
    Path work;

    private Path marker() {
        return work.resolve("ran.txt");
    }

    /** Drops {@code jar} into a serving host and returns its plugins.list record once it is refused. */
    private JsonNode dropAndAwaitRefusal(HostProcess host, DropInJar jar, String name) throws Exception {
        host.call("host.info", "{}");
        jar.marker(marker()).dropInto(data.resolve("plugins"), name);
        JsonNode record = DropInJar.awaitFile(host, name, "invalid");
        assertThat(record.get("bundleId").asLong()).as("refused before it was installed").isEqualTo(-1);
        for (JsonNode b : host.startedInfo().get("bundles")) {
            assertThat(b.get("symbolicName").asText()).as("the refused jar is not in the framework")
                    .isNotEqualTo(record.path("symbolicName").asText());
        }
        assertThat(marker()).as("nothing of the jar ran").doesNotExist();
        assertThat(host.badLines()).isEmpty();
        return record;
    }

    /** Pins: a Pi-Plugin bundle with a Bundle-Activator ran it as soon as it was dropped in. */
    @Test
    void aPluginWithAnActivatorIsRefusedAndTheActivatorNeverRuns() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            DropInJar jar = DropInJar.plugin("org.example.activator", "activator", MarkingTool.class)
                    .header("Bundle-Activator", MarkingActivator.class.getName())
                    .header("Import-Package", "pi.host.api;version=\"[0.2,1)\", org.osgi.framework")
                    .withClass(MarkingActivator.class);
            JsonNode record = dropAndAwaitRefusal(host, jar, "activator.jar");
            assertThat(DropInJar.names(record, "MANIFEST.MF: Bundle-Activator")).as(record.toString()).isTrue();
            assertThat(record.get("id").asText()).isEqualTo("activator");
        }
    }

    /** Pins: a Pi-Plugin bundle with an immediate DS component was created by SCR before its grant. */
    @Test
    void aPluginWithADeclarativeServicesComponentIsRefusedAndTheComponentIsNeverCreated() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            DropInJar jar = DropInJar.plugin("org.example.ds", "ds", MarkingTool.class)
                    .header("Service-Component", "OSGI-INF/mark.xml").text("OSGI-INF/mark.xml", DS_XML)
                    .withClass(MarkingComponent.class);
            JsonNode record = dropAndAwaitRefusal(host, jar, "ds.jar");
            assertThat(DropInJar.names(record, "MANIFEST.MF: Service-Component")).as(record.toString()).isTrue();
        }
    }

    /** Pins: an activator plus DynamicImport-Package: * ran and could wire to any host package. */
    @Test
    void aPluginWithDynamicImportsAndAnActivatorIsRefusedNamingBoth() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            DropInJar jar = DropInJar.plugin("org.example.dynamic", "dynamic", MarkingTool.class)
                    .header("Bundle-Activator", MarkingActivator.class.getName())
                    .header("DynamicImport-Package", "*").withClass(MarkingActivator.class);
            JsonNode record = dropAndAwaitRefusal(host, jar, "dynamic.jar");
            assertThat(DropInJar.names(record, "MANIFEST.MF: DynamicImport-Package")).as(record.toString()).isTrue();
            assertThat(DropInJar.names(record, "MANIFEST.MF: Bundle-Activator")).as(record.toString()).isTrue();
        }
    }

    /** Pins: a jar without a Pi-Plugin header was installed and started like any bundle, running its activator. */
    @Test
    void aJarThatIsNotAPluginIsNotInstalledAndRunsNothing() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            DropInJar jar = DropInJar.bundle("org.example.notaplugin")
                    .header("Bundle-Activator", MarkingActivator.class.getName())
                    .header("Import-Package", "org.osgi.framework").withClass(MarkingActivator.class);
            JsonNode record = dropAndAwaitRefusal(host, jar, "library.jar");
            assertThat(DropInJar.names(record, "MANIFEST.MF: Pi-Plugin")).as(record.toString()).isTrue();
        }
    }

    /** Pins: the ServiceLoader mediator's headers passed the check, so a mediator would create the jar's providers. */
    @Test
    void aPluginAskingTheServiceLoaderMediatorIsRefused() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            DropInJar jar = DropInJar.plugin("org.example.spi", "spi", MarkingTool.class)
                    .header("SPI-Provider", "*")
                    .text("META-INF/services/java.lang.Runnable", MarkingComponent.class.getName())
                    .withClass(MarkingComponent.class);
            JsonNode record = dropAndAwaitRefusal(host, jar, "spi.jar");
            assertThat(DropInJar.names(record, "MANIFEST.MF: SPI-Provider")).as(record.toString()).isTrue();
        }
    }

    /** The control: a valid plugin is installed, its tool class is not initialised until the grant, then it is. */
    @Test
    void aValidPluginsToolClassIsFirstInitialisedByTheGrant() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("host.info", "{}");
            DropInJar.plugin("org.example.marking", "marking", MarkingTool.class).marker(marker())
                    .dropInto(data.resolve("plugins"), "marking.jar");
            JsonNode record = DropInJar.awaitFile(host, "marking.jar", "awaiting-grant");
            assertThat(record.get("bundleId").asLong()).isPositive();
            assertThat(marker()).as("no class of the plugin was initialised before the grant").doesNotExist();

            JsonNode granted = host.call("plugins.grant", "{\"pluginId\":\"marking\",\"capability\":"
                    + "\"agent.tool.register\"}").get("plugin");
            assertThat(granted.get("state").asText()).isEqualTo("registered");
            assertThat(Files.readAllLines(marker())).containsExactly("MarkingTool");
            for (JsonNode b : host.startedInfo().get("bundles")) {
                if ("org.example.marking".equals(b.get("symbolicName").asText())) {
                    assertThat(b.get("state").asText()).as("nothing starts a plugin bundle").isEqualTo("RESOLVED");
                    assertThat(b.get("origin").asText()).isEqualTo("third-party");
                }
            }
        }
    }
}
