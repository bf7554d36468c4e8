package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static pi.host.launcher.McpFixture.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a stdio server is started and ended by a real {@code pi-host serve --stdio} (the bridge running on
 * the MCP Java SDK 2.1.0's own bundles): only after the host answered its first request, with the user's
 * login PATH (the command itself is found on it), offered elicitation only (no sampling, no roots), an
 * elicitation outside any call declined, and the server's whole tree ended when the host shuts down
 * normally.
 */
class McpServerStartIT {

    @TempDir
    Path data;
    @TempDir
    Path markers;
    @TempDir
    Path bin;

    @Test
    void aServerStartsAfterTheFirstAnswerOnTheLoginPathAndEndsWithTheHost() throws Exception {
        // a command that only the login shell's PATH has: it notes its start, then runs the test server
        Path command = bin.resolve("pi-login-only-server");
        Files.writeString(command, "#!/bin/sh\ntouch '" + markers.resolve("started") + "'\nexec node '"
                + McpFixture.resource("mcp/test-server.cjs") + "'\n");
        Path shell = bin.resolve("login-shell");
        // the probe runs $SHELL -lic 'printf %s "$PATH"': this login shell puts bin first
        Files.writeString(shell, "#!/bin/sh\nprintf %s '" + bin + "':\"$PATH\"\n");
        assertThat(command.toFile().setExecutable(true) && shell.toFile().setExecutable(true)).isTrue();
        ObjectNode login = McpFixture.testServer(markers);
        login.put("command", command.getFileName().toString());
        login.putArray("args");

        // mcp.json is a FIFO at first: the write below returns once the bridge has opened it, i.e. is active
        Path config = data.resolve("mcp.json");
        assertThat(new ProcessBuilder("mkfifo", config.toString()).start().waitFor()).isZero();
        String json = McpFixture.JSON.writeValueAsString(McpFixture.JSON.createObjectNode().set("mcpServers",
                McpFixture.JSON.createObjectNode().set("login", login)));
        CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
            try (OutputStream out = Files.newOutputStream(config)) {
                out.write(json.getBytes(StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        List<String> launch = HostProcess.javaCommand(HostProcess.launcherJar());
        launch.addAll(List.of("serve", "--stdio", "--data-dir", data.toString()));
        ProcessBuilder builder = new ProcessBuilder(launch);
        builder.environment().put("SHELL", shell.toString());
        try (HostProcess host = HostProcess.start(builder)) {
            read.get(60, java.util.concurrent.TimeUnit.SECONDS);
            // the same configuration as a file, for the watcher that starts with the servers
            Path file = data.resolve("mcp.json.file");
            Files.writeString(file, json);
            Files.move(file, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

            // the bridge has its configuration, the host has answered nothing: nothing is started
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                    .until(() -> !Files.exists(markers.resolve("started")));
            JsonNode first = host.call("mcp.list", "{}").get("servers");
            assertThat(first).hasSize(1);
            assertThat(first.get(0).get("state").asText()).as(first.toString()).isEqualTo("starting");
            assertThat(first.get(0).get("pid").asLong()).isEqualTo(-1);
            McpFixture mcp = new McpFixture(host);
            long pid = mcp.awaitState("login", "ready").get("pid").asLong();

            // the bridge on the SDK's own bundles (never the aggregate artifact, nor the Jackson 3 it brings)
            java.util.Map<String, JsonNode> bundles = new java.util.HashMap<>();
            host.startedInfo().get("bundles").forEach(b -> bundles.put(b.get("symbolicName").asText(), b));
            for (String name : List.of("pi.host.mcp", "io.modelcontextprotocol.sdk.mcp-core",
                    "io.modelcontextprotocol.sdk.mcp-json-jackson2", "io.projectreactor.reactor-core", "reactive-streams")) {
                assertThat(bundles).as(name).containsKey(name);
                assertThat(bundles.get(name).get("state").asText()).as(name).isEqualTo("ACTIVE");
            }
            assertThat(bundles.get("io.modelcontextprotocol.sdk.mcp-core").get("version").asText()).isEqualTo("2.1.0");
            assertThat(bundles.keySet()).noneMatch(n -> n.startsWith("tools.jackson"))
                    .doesNotContain("io.modelcontextprotocol.sdk.mcp");
            assertThat(markers.resolve("started")).exists();

            // the login PATH, found by the probe, is the server's PATH
            String session = mcp.session("{\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_login_env");
            JsonNode env = McpFixture.JSON.readTree(text(mcp.result(mcp.start(session, "s1", "mcp_login_env", "{}"))));
            assertThat(env.get("env").get("PATH").asText()).isEqualTo(bin + ":" + System.getenv("PATH"));

            // what the bridge offered the server in initialize: elicitation (form) only
            mcp.activate(session, "mcp_login_caps");
            JsonNode caps = McpFixture.JSON.readTree(text(mcp.result(mcp.start(session, "s2", "mcp_login_caps", "{}"))));
            assertThat(caps.has("elicitation")).as(caps.toString()).isTrue();
            assertThat(caps.has("sampling")).as(caps.toString()).isFalse();
            assertThat(caps.has("roots")).as(caps.toString()).isFalse();

            // an elicitation that comes when none of the server's calls runs is declined, and nobody is asked
            mcp.activate(session, "mcp_login_ask_later");
            assertThat(text(mcp.result(mcp.start(session, "s3", "mcp_login_ask_later", "{}")))).isEqualTo("will ask later");
            Path late = markers.resolve("late-elicit");
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(late) && Files.size(late) > 0);
            assertThat(Files.readString(late)).as("what the server got").startsWith("{");
            assertThat(McpFixture.JSON.readTree(Files.readString(late)).get("action").asText()).isEqualTo("decline");
            assertThat(host.messages()).noneMatch(m -> "ask.request".equals(m.path("method").asText()));

            // a normal shutdown (end of input) ends the server and what it started
            mcp.activate(session, "mcp_login_spawn");
            assertThat(text(mcp.result(mcp.start(session, "s4", "mcp_login_spawn", "{}")))).startsWith("grandchild ");
            long grandchild = Long.parseLong(Files.readString(markers.resolve("grandchild.pid")).strip());
            assertThat(ProcessHandle.of(grandchild)).isPresent();
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(60))).isZero();
            for (long p : new long[] {pid, grandchild}) {
                await().atMost(Duration.ofSeconds(15)).until(() -> ProcessHandle.of(p).map(h -> !h.isAlive()).orElse(true));
            }
        }
    }
}
