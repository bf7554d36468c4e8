package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.launcher.dropin.GreetingTool;

/**
 * Live deployment through the real process: a plugin jar dropped into {@code <data_dir>/plugins} is
 * installed and listed ({@code plugins.changed}), granted and called; replacing the jar updates it,
 * removing it uninstalls it ({@code tools.changed}); a restart keeps it and its grant. Every wait is
 * bounded; the latencies are printed for docs/performance-log.md.
 */
class DropInPluginIT {

    private static final String TOOL = "plugin_greet_hello";
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path data;
    @TempDir
    Path project;

    /** A plugin jar whose tool answers "hello <greeting>". */
    private static DropInJar jar(String version, String greeting) {
        return DropInJar.plugin("org.example.greet", "greet", version, GreetingTool.class).text("greeting.txt", greeting);
    }

    private static void drop(DropInJar jar, Path plugins) throws IOException {
        jar.dropInto(plugins, "greet.jar");
    }

    private static long count(HostProcess host, String method, String field, String value) {
        return host.messages().stream()
                .filter(m -> method.equals(m.path("method").asText()))
                .filter(m -> m.path("params").path(field).toString().contains("\"" + value + "\""))
                .count();
    }

    private static JsonNode awaitPlugins(HostProcess host, String state, long atLeast) {
        await("plugins.changed " + state).atMost(BOUND).until(() -> host.messages().stream()
                .filter(m -> "plugins.changed".equals(m.path("method").asText()))
                .filter(m -> state.equals(m.path("params").path("state").asText())).count() >= atLeast);
        return host.messages().stream().filter(m -> "plugins.changed".equals(m.path("method").asText()))
                .reduce((first, second) -> second).orElseThrow();
    }

    private static String greet(HostProcess host, String session, String callId) throws IOException {
        host.tool(session, callId + "-search", "ToolSearch", "{\"query\":\"" + TOOL + "\"}");
        return host.tool(session, callId, TOOL, "{}").get("content").get(0).get("text").asText();
    }

    @Test
    void aDroppedJarIsInstalledGrantedUpdatedAndUninstalledWithoutARestart() throws Exception {
        Path plugins = data.resolve("plugins");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            assertThat(plugins).isDirectory();

            long dropped = System.nanoTime();
            drop(jar("1.0.0", "v1"), plugins);
            awaitPlugins(host, "awaiting-grant", 1);
            long listedMillis = (System.nanoTime() - dropped) / 1_000_000;
            JsonNode grant = host.call("plugins.grant", "{\"pluginId\":\"greet\",\"capability\":\"agent.tool.register\"}");
            assertThat(grant.get("plugin").get("state").asText()).isEqualTo("registered");
            await("tools.changed adding " + TOOL).atMost(BOUND).until(() -> count(host, "tools.changed", "added", TOOL) == 1);
            assertThat(greet(host, session, "g1")).isEqualTo("hello v1");

            long replaced = System.nanoTime();
            drop(jar("1.1.0", "v2"), plugins);
            await("the updated tool").atMost(BOUND).until(() -> count(host, "tools.changed", "added", TOOL) == 2);
            long updatedMillis = (System.nanoTime() - replaced) / 1_000_000;
            assertThat(greet(host, session, "g2")).isEqualTo("hello v2");
            JsonNode listed = host.call("plugins.list", "{}").get("plugins").get(0);
            assertThat(listed.get("version").asText()).isEqualTo("1.1.0");
            assertThat(listed.get("state").asText()).isEqualTo("registered");

            long removed = System.nanoTime();
            Files.delete(plugins.resolve("greet.jar"));
            await("tools.changed removing " + TOOL).atMost(BOUND)
                    .until(() -> count(host, "tools.changed", "removed", TOOL) >= 2);
            awaitPlugins(host, "removed", 2);
            long removedMillis = (System.nanoTime() - removed) / 1_000_000;
            assertThat(host.call("plugins.list", "{}").get("plugins")).isEmpty();
            assertThat(host.tool(session, "g3", TOOL, "{}").get("errorCode").asText()).isEqualTo("UNKNOWN_TOOL");
            assertThat(host.badLines()).isEmpty();
            System.out.printf("drop-in latency: listed %d ms after the drop, updated %d ms after the replace,"
                    + " removed %d ms after the delete%n", listedMillis, updatedMillis, removedMillis);
        }
    }

    @Test
    void aDroppedPluginAndItsGrantSurviveARestart() throws Exception {
        Path plugins = data.resolve("plugins");
        try (HostProcess host = HostProcess.serve(data)) {
            host.startedInfo(); // up, the plugin runtime too: what it finds while it starts is in its first list, not in a notification
            drop(jar("1.0.0", "v1"), plugins);
            awaitPlugins(host, "awaiting-grant", 1);
            host.call("plugins.grant", "{\"pluginId\":\"greet\",\"capability\":\"agent.tool.register\"}");
            host.closeInput();
            assertThat(host.awaitExit(BOUND)).isZero();
        }
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            await("greet registered after the restart").atMost(BOUND).until(() -> {
                JsonNode list = host.call("plugins.list", "{}").get("plugins");
                return list.size() == 1 && "registered".equals(list.get(0).get("state").asText());
            });
            assertThat(greet(host, session, "r1")).isEqualTo("hello v1");
            JsonNode info = host.call("host.info", "{}");
            for (JsonNode b : info.get("bundles")) {
                // the distribution active (a fragment resolved); the plugin resolved, never started by anyone
                boolean resolvedOnly = b.get("fragment").asBoolean() || "third-party".equals(b.get("origin").asText());
                assertThat(b.get("state").asText()).as(b.toString()).isEqualTo(resolvedOnly ? "RESOLVED" : "ACTIVE");
            }
        }
    }
}
