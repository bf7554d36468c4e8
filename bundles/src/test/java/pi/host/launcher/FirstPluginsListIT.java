package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.launcher.dropin.GreetingTool;

/**
 * Issue 12.8 with the real process: the drop-ins present when the host starts are all in the very
 * first {@code plugins.list} answer, with their final state, and a granted one is registered by then.
 */
class FirstPluginsListIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    private static Map<String, String> states(JsonNode list) {
        Map<String, String> states = new TreeMap<>();
        for (JsonNode p : list.get("plugins")) {
            states.put(p.get("file").asText(), p.get("state").asText());
        }
        return states;
    }

    /** Pins: an early plugins.list missed drop-ins the host had not installed yet (FileInstall scanned later). */
    @Test
    void theFirstAnswerListsEveryDropInPresentAtStart() throws Exception {
        Path plugins = Files.createDirectories(data.resolve("plugins"));
        DropInJar.plugin("org.example.one", "one", GreetingTool.class).text("greeting.txt", "one")
                .dropInto(plugins, "one.jar");
        DropInJar.plugin("org.example.two", "two", GreetingTool.class).text("greeting.txt", "two")
                .dropInto(plugins, "two.jar");
        DropInJar.plugin("org.example.bad", "bad", GreetingTool.class).header("Bundle-Activator", "x.Y")
                .dropInto(plugins, "bad.jar");
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode first = host.call("plugins.list", "{}");
            assertThat(states(first)).containsExactly(Map.entry("bad.jar", "invalid"),
                    Map.entry("one.jar", "awaiting-grant"), Map.entry("two.jar", "awaiting-grant"));
            host.call("plugins.grant", "{\"pluginId\":\"one\",\"capability\":\"agent.tool.register\"}");
            host.closeInput();
            assertThat(host.awaitExit(DropInJar.BOUND)).isZero();
        }
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode first = host.call("plugins.list", "{}");
            assertThat(states(first)).containsEntry("one.jar", "registered").containsEntry("two.jar", "awaiting-grant")
                    .containsEntry("bad.jar", "invalid");
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            host.tool(session, "s1", "ToolSearch", "{\"query\":\"plugin_one_hello\"}");
            assertThat(host.tool(session, "c1", "plugin_one_hello", "{}").get("content").get(0).get("text").asText())
                    .isEqualTo("hello one");
        }
    }
}
