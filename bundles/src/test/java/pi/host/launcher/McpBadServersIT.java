package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static pi.host.launcher.McpFixture.names;
import static pi.host.launcher.McpFixture.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Servers that misbehave, each with its exact outcome in {@code mcp.list}, beside a healthy server and a
 * host that stay unaffected: a command that does not exist, one that exits at once, garbage on stdout, a
 * server that never answers initialize, 10,000 tools, names that collide after making them safe, an answer
 * too large to read, and garbage in the middle of a call.
 */
class McpBadServersIT {

    @TempDir
    Path data;
    @TempDir
    Path markers;

    @Test
    void eachBadServerFailsAloneWithItsReason() throws Exception {
        String testServer = McpFixture.resource("mcp/test-server.cjs").toString();
        Map<String, JsonNode> servers = new LinkedHashMap<>();
        servers.put("everything", McpFixture.everything());
        servers.put("nosuch", McpFixture.stdio("pi-host-no-such-command"));
        servers.put("exits", McpFixture.stdio("sh", "-c", "echo bye >&2; exit 3"));
        ObjectNode garbage = McpFixture.testServer(markers);
        garbage.put("command", "sh");
        garbage.putArray("args").add("-c").add("echo this is not json; exec node " + testServer);
        servers.put("garbage", garbage);
        servers.put("hangs", McpFixture.stdio("sleep", "1000").put("timeoutMs", 2000));
        ObjectNode many = McpFixture.testServer(markers);
        ((ObjectNode) many.get("env")).put("PI_TEST_EXTRA", "10000");
        servers.put("many", many);
        servers.put("a-b", McpFixture.testServer(markers));
        servers.put("a_b", McpFixture.testServer(markers));
        servers.put("test", McpFixture.testServer(markers));
        servers.put("bad-entry", McpFixture.JSON.createObjectNode().put("command", "node").put("url", "http://x"));
        McpFixture.configure(data, servers);
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);

            JsonNode nosuch = mcp.awaitState("nosuch", "failed");
            assertThat(nosuch.get("error").asText()).contains("exited").contains("with status 127")
                    .contains("pi-host-no-such-command").contains("No such file");
            JsonNode exits = mcp.awaitState("exits", "failed");
            assertThat(exits.get("error").asText()).contains("exited").contains("with status 3").contains("bye");
            assertThat(exits.get("stderrTail").asText()).contains("bye");
            JsonNode bad = mcp.awaitServer("garbage", s -> s.get("error").asText().contains("not JSON"));
            assertThat(bad.get("state").asText()).isEqualTo("failed");
            assertThat(bad.get("error").asText()).contains("this is not json");
            JsonNode hangs = mcp.awaitState("hangs", "failed");
            assertThat(hangs.get("error").asText()).contains("did not answer initialize within 2000 ms");
            JsonNode entry = mcp.awaitState("bad-entry", "failed");
            assertThat(entry.get("error").asText()).contains("exactly one of \"command\" (stdio) or \"url\" (http)");

            JsonNode lots = mcp.awaitState("many", "ready");
            assertThat(lots.get("tools")).hasSize(256);
            assertThat(lots.get("error").asText()).contains("lists 10016 tools; only the first 256 are offered");

            // a-b and a_b both make mcp_a_b_*: each name is served by the server that registered it first
            // (both start at once, so which one is not fixed); the other lists it refused, with why
            mcp.awaitState("a-b", "ready");
            mcp.awaitState("a_b", "ready");
            JsonNode first = mcp.server("a-b");
            JsonNode second = mcp.server("a_b");
            List<String> firstNames = names(first.get("tools"));
            List<String> secondNames = names(second.get("tools"));
            assertThat(firstNames).as("no name is served by both").noneMatch(secondNames::contains);
            List<String> both = new ArrayList<>(firstNames);
            both.addAll(secondNames);
            assertThat(both).contains("mcp_a_b_touch");
            assertThat(first.get("refusedTools").size() + second.get("refusedTools").size())
                    .as("every name one server holds is refused to the other").isEqualTo(firstNames.size()
                            + secondNames.size());
            for (JsonNode r : List.of(first, second)) {
                r.get("refusedTools").forEach(t -> assertThat(t.get("reason").asText()).contains("already registered"));
            }

            // the healthy server and the host are unaffected
            assertThat(mcp.awaitState("everything", "ready").get("error").isNull()).isTrue();
            assertThat(host.call("host.info", "{}").get("protocolVersion").asInt()).isPositive();
            String session = mcp.session("{\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_everything_echo");
            assertThat(text(mcp.result(mcp.start(session, "ok1", "mcp_everything_echo", "{\"message\":\"fine\"}"))))
                    .isEqualTo("Echo: fine");

            // an answer larger than the bridge reads, and garbage in the middle of a call: the call ends, not hangs
            mcp.awaitState("test", "ready");
            mcp.activate(session, "mcp_test_huge");
            JsonNode huge = mcp.result(mcp.start(session, "big", "mcp_test_huge", "{}"));
            assertThat(huge.get("errorCode").asText()).isEqualTo("MCP_SERVER_UNAVAILABLE");
            // the bridge stops reading at 8 Mi characters; the server then stops answering (or dies of it)
            assertThat(text(huge)).contains("is not available");
            mcp.awaitState("test", "ready");
            mcp.activate(session, "mcp_test_garbage");
            JsonNode midCall = mcp.result(mcp.start(session, "mid", "mcp_test_garbage", "{}"));
            assertThat(midCall.get("errorCode").asText()).isEqualTo("MCP_SERVER_UNAVAILABLE");
            assertThat(text(midCall)).contains("not JSON");
            assertThat(mcp.awaitState("test", "ready").get("tools").size()).isPositive();

            // a server that never gets going is given up, not restarted forever
            JsonNode givenUp = mcp.awaitServer("nosuch", s -> s.get("error").asText().contains("gave up"));
            assertThat(givenUp.get("error").asText()).contains("after 5 attempts");
            assertThat(host.badLines()).isEmpty();
        }
    }

    /** Pins orphaned servers: a stdio server and what it started must not outlive the host, even after kill -9. */
    @Test
    void noServerProcessOutlivesTheHost() throws Exception {
        McpFixture.configure(data, Map.of("test", McpFixture.testServer(markers), "gone",
                McpFixture.testServer(markers)));
        long server;
        long grandchild;
        long removedServer;
        long removedGrandchild;
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            server = mcp.awaitState("test", "ready").get("pid").asLong();
            removedServer = mcp.awaitState("gone", "ready").get("pid").asLong();
            String session = mcp.session("{\"permissionMode\":\"auto\"}");
            removedGrandchild = spawnGrandchild(mcp, session, "gone");
            grandchild = spawnGrandchild(mcp, session, "test");

            // removal ends the server's whole tree
            McpFixture.configure(data, Map.of("test", McpFixture.testServer(markers)));
            awaitGone(removedServer);
            awaitGone(removedGrandchild);

            // kill -9 of the host: nothing of the other server survives either
            assertThat(ProcessHandle.of(grandchild)).isPresent();
            host.process().destroyForcibly();
            host.awaitExit(Duration.ofSeconds(30));
        }
        awaitGone(server);
        awaitGone(grandchild);
    }

    private long spawnGrandchild(McpFixture mcp, String session, String server) throws Exception {
        Files.deleteIfExists(markers.resolve("grandchild.pid"));
        mcp.activate(session, "mcp_" + server + "_spawn");
        JsonNode r = mcp.result(mcp.start(session, "spawn-" + server, "mcp_" + server + "_spawn", "{}"));
        assertThat(text(r)).startsWith("grandchild ");
        long pid = Long.parseLong(Files.readString(markers.resolve("grandchild.pid")).strip());
        assertThat(ProcessHandle.of(pid)).isPresent();
        return pid;
    }

    private static void awaitGone(long pid) {
        await().atMost(Duration.ofSeconds(15)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
    }
}
