package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * What the MCP tests share: the real npm servers (bench/node_modules, which {@code npm ci --prefix bench}
 * installs, as .ci/run does), the test server of these tests, {@code mcp.json} written into a data dir,
 * and a driven host's view of its servers and cards.
 */
final class McpFixture {

    static final ObjectMapper JSON = new ObjectMapper();

    private final HostProcess host;
    private final AtomicInteger ids = new AtomicInteger(5_000);

    McpFixture(HostProcess host) {
        this.host = host;
    }

    /** {@code bench/node_modules}; fails (never skips) when the npm packages are not installed. */
    static Path npm() {
        String dir = System.getProperty("pi.host.npm");
        Path p = dir == null ? null : Path.of(dir);
        if (p == null || !Files.isDirectory(p.resolve("@modelcontextprotocol/server-everything"))
                || !Files.isDirectory(p.resolve("@modelcontextprotocol/sdk"))) {
            throw new IllegalStateException("the MCP tests need the npm packages of bench/package.json in " + dir
                    + ": run `npm ci --prefix bench` (.ci/run does)");
        }
        return p;
    }

    /** node with server-everything over stdio. */
    static ObjectNode everything() {
        return stdio("node", npm().resolve("@modelcontextprotocol/server-everything/dist/index.js").toString(),
                "stdio");
    }

    /** node with the test server (src/test/resources/mcp/test-server.cjs), its markers in {@code markers}. */
    static ObjectNode testServer(Path markers) {
        ObjectNode s = stdio("node", resource("mcp/test-server.cjs").toString());
        s.putObject("env").put("PI_HOST_NPM", npm().toString()).put("PI_TEST_MARKERS", markers.toString());
        return s;
    }

    static ObjectNode stdio(String command, String... args) {
        ObjectNode s = JSON.createObjectNode().put("command", command);
        var a = s.putArray("args");
        for (String arg : args) {
            a.add(arg);
        }
        return s;
    }

    static Path resource(String name) {
        try {
            return Path.of(McpFixture.class.getClassLoader().getResource(name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("test resource " + name + " is missing", e);
        }
    }

    /** Writes {@code <data>/mcp.json} with these servers (replacing the file in one rename). */
    static void configure(Path data, Map<String, ? extends JsonNode> servers) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode all = root.putObject("mcpServers");
        servers.forEach(all::set);
        Files.createDirectories(data);
        Path tmp = data.resolve(".mcp.json.tmp");
        Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        Files.move(tmp, data.resolve("mcp.json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** The server's record in {@code mcp.list} once it satisfies {@code test} (bounded wait). */
    JsonNode awaitServer(String id, Predicate<JsonNode> test) {
        JsonNode[] last = {null};
        try {
            return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                last[0] = server(id);
                return last[0];
            }, s -> s != null && test.test(s));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("server " + id + " never got there; last record " + last[0] + "; host stderr:\n"
                    + tail(host.stderr()), e);
        }
    }

    /** Waits (bounded) until {@code mcp.list} no longer has the server. */
    void awaitAbsent(String id) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> server(id) == null);
    }

    JsonNode awaitState(String id, String state) {
        return awaitServer(id, s -> state.equals(s.path("state").asText()));
    }

    /** The server's record in {@code mcp.list}, or null. */
    JsonNode server(String id) throws IOException {
        for (JsonNode s : host.call("mcp.list", "{}").get("servers")) {
            if (id.equals(s.get("id").asText())) {
                return s;
            }
        }
        return null;
    }

    String session(String params) throws IOException {
        return host.call("session.create", params).get("sessionId").asText();
    }

    /** Activates {@code tool} for the session through ToolSearch (MCP tools are on demand). */
    void activate(String session, String tool) throws IOException {
        JsonNode found = host.tool(session, "search-" + ids.incrementAndGet(), "ToolSearch",
                "{\"query\":\"" + tool + "\"}");
        assertThat(found.get("ok").asBoolean()).as("ToolSearch " + found).isTrue();
        assertThat(found.get("details").get("addedToolNames").toString()).contains(tool);
    }

    /** Starts a tools.execute without waiting; {@link #result} awaits its answer. */
    int start(String session, String callId, String tool, String arguments) throws IOException {
        int id = ids.incrementAndGet();
        host.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"" + callId + "\",\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}");
        return id;
    }

    JsonNode result(int id) {
        return host.response(id).get("result");
    }

    JsonNode card(String callId) {
        return notification("permission.request", p -> callId.equals(p.path("toolCallId").asText()));
    }

    long cards(String callId) {
        return host.messages().stream().filter(m -> "permission.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).count();
    }

    void resolve(JsonNode card, String decision) throws IOException {
        host.call("permissions.resolve", "{\"requestId\":\"" + card.get("requestId").asText() + "\",\"decision\":\""
                + decision + "\"}");
    }

    /** The params of the first notification {@code method} whose params satisfy {@code test} (bounded wait). */
    JsonNode notification(String method, Predicate<JsonNode> test) {
        return host.awaitMessage(m -> method.equals(m.path("method").asText()) && test.test(m.path("params")))
                .get("params");
    }

    static String text(JsonNode result) {
        StringBuilder b = new StringBuilder();
        result.get("content").forEach(c -> b.append(c.path("text").asText()));
        return b.toString();
    }

    static List<String> names(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String tail(String s) {
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }
}
