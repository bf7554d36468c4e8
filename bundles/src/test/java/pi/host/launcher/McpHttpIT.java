package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.launcher.dropin.GreetingTool;

/**
 * {@code pi-host mcp --http}: the same real-client flows over streamable HTTP with the bearer token
 * (tool list, Read, Write through elicitation, Bash cancelled), and {@code --approver rpc}: the cards
 * of an HTTP client's calls answered by the JSON-RPC client on stdin/stdout, which also grants a
 * plugin, so the MCP client hears {@code tools/list_changed} and can call the plugin's tool, and answers
 * a bridged MCP server's elicitation during the MCP client's call.
 */
class McpHttpIT {

    static final Pattern URL = Pattern.compile("serving streamable HTTP at (http://\\S+)");
    static final Pattern TOKEN = Pattern.compile("bearer token \\(send it as 'Authorization: Bearer <token>'\\): (\\S+)");

    @TempDir
    Path data;
    @TempDir
    Path workspace;
    @TempDir
    Path secrets;

    /** The tool of the drop-in plugin {@code greet} the test grants ({@link DropInJar#plugin}: tool {@code hello}). */
    private static final String GREETING_TOOL = "plugin_greet_hello";

    /** The URL and the generated token a {@code pi-host mcp --http} printed to stderr. */
    static String[] endpoint(HostProcess host) {
        String[] found = new String[2];
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            Matcher u = URL.matcher(host.stderr());
            Matcher t = TOKEN.matcher(host.stderr());
            if (u.find() && t.find()) {
                found[0] = u.group(1);
                found[1] = t.group(1);
                return true;
            }
            return false;
        });
        return found;
    }

    @Test
    void theSameFlowsOverStreamableHttpWithTheToken() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "one\n");
        try (HostProcess host = HostProcess.start("mcp", "--http", "127.0.0.1:0", "--workspace", workspace.toString(),
                "--data-dir", data.toString(), "--permission-mode", "ask");
                McpClient mcp = McpClient.start()) {
            String[] at = endpoint(host);
            JsonNode connected = mcp.connectHttp(at[0], at[1], true);
            assertThat(connected.path("ok").asBoolean()).as(connected + host.stderr()).isTrue();
            assertThat(connected.path("result").path("sessionId").asText()).isNotEmpty();
            assertThat(McpClient.toolNames(mcp.listTools())).containsExactlyInAnyOrder("Bash", "Edit", "Glob", "Grep", "Read", "TodoWrite", "Write");

            assertThat(McpClient.text(mcp.call("Read", "{\"path\":\"notes.txt\"}"))).contains("1\tone");

            mcp.answer("decline", null);
            assertThat(McpClient.text(mcp.call("Write", "{\"path\":\"w.txt\",\"content\":\"w\"}")))
                    .isEqualTo("TOOL_DENIED: user denied permission");
            assertThat(workspace.resolve("w.txt")).doesNotExist();
            mcp.answer("accept", "allow-once");
            JsonNode written = mcp.call("Write", "{\"path\":\"w.txt\",\"content\":\"w\"}");
            assertThat(written.path("_meta").path("pi-host/review").size()).as(written.toString()).isEqualTo(1);
            assertThat(workspace.resolve("w.txt")).hasContent("w");

            // allow for the session: Bash is asked once, then runs; cancelled at its first output
            mcp.answer("accept", "allow-session");
            JsonNode cancelled = mcp.callCancellingOnProgress("Bash", "{\"command\":\"echo $$ > pid; echo go; sleep 120\"}");
            assertThat(cancelled.path("ok").asBoolean()).as(cancelled.toString()).isFalse();
            long pid = Long.parseLong(Files.readString(workspace.resolve("pid")).strip());
            await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
            int asked = mcp.events("elicitation").size();
            assertThat(McpClient.text(mcp.call("Bash", "{\"command\":\"echo again\"}"))).contains("again");
            assertThat(mcp.events("elicitation")).hasSize(asked); // the session grant held: no new card

            // a second MCP session is a pi-host session of its own: the first one's Bash grant does not cover
            // it, and a client without elicitation is denied without being asked (nothing runs)
            try (McpClient other = McpClient.start()) {
                assertThat(other.connectHttp(at[0], at[1], false).path("ok").asBoolean()).isTrue();
                Path ran = workspace.resolve("other-ran");
                JsonNode denied = other.call("Bash", "{\"command\":\"touch " + ran + "\"}");
                assertThat(McpClient.text(denied)).isEqualTo("TOOL_DENIED: user denied permission");
                assertThat(ran).doesNotExist();
                assertThat(denied.path("_meta").path("pi-host/sessionId").asText()).isNotEmpty()
                        .isNotEqualTo(written.path("_meta").path("pi-host/sessionId").asText());
            }
        }
    }

    /**
     * With --approver rpc the MCP client is never asked: the card goes to the JSON-RPC client on stdio,
     * whose answer decides. That client grants a dropped-in plugin; the MCP client hears list_changed,
     * sees the plugin's tool, and its call runs (activated through the host's ToolSearch, audited).
     */
    @Test
    void rpcApproverAnswersCardsAndAGrantedPluginIsListed() throws Exception {
        // the token of a --token-file (its first line) is the token, and none is printed
        String token = "file-token-" + "0123456789abcdef".repeat(3);
        Path tokenFile = Files.writeString(secrets.resolve("token"), token + "\nignored\n");
        Path markers = Files.createDirectories(secrets.resolve("markers"));
        McpFixture.configure(data, java.util.Map.of("test", McpFixture.testServer(markers).put("timeoutMs", 20_000)));
        try (HostProcess host = HostProcess.start("mcp", "--http", "127.0.0.1:0", "--approver", "rpc",
                "--token-file", tokenFile.toString(),
                "--workspace", workspace.toString(), "--data-dir", data.toString(), "--permission-mode", "ask");
                McpClient mcp = McpClient.start()) {
            String url = await().atMost(Duration.ofSeconds(60)).until(() -> {
                Matcher u = URL.matcher(host.stderr());
                return u.find() ? u.group(1) : null;
            }, java.util.Objects::nonNull);
            assertThat(host.stderr()).contains("bearer token from " + tokenFile).doesNotContain(token);
            assertThat(mcp.connectHttp(url, token, true).path("ok").asBoolean()).isTrue();
            mcp.answer("decline", null); // would deny, if it were asked

            // the MCP call waits for the card; the stdio client allows it
            Thread writer = inBackground(() -> {
                JsonNode card = host.awaitMessage(m -> "permission.request".equals(m.path("method").asText()));
                host.call("permissions.resolve", "{\"requestId\":\"" + card.path("params").path("requestId").asText()
                        + "\",\"decision\":\"allow-once\"}");
            });
            JsonNode written = mcp.call("Write", "{\"path\":\"r.txt\",\"content\":\"r\"}");
            writer.join(60_000);
            assertThat(written.path("isError").asBoolean()).as(written.toString()).isFalse();
            assertThat(workspace.resolve("r.txt")).hasContent("r");
            assertThat(mcp.events("elicitation")).isEmpty();

            DropInJar.plugin("org.example.greet", "greet", GreetingTool.class).text("greeting.txt", "from http")
                    .dropInto(data.resolve("plugins"), "greet.jar");
            host.awaitMessage(m -> "plugins.changed".equals(m.path("method").asText())
                    && m.path("params").toString().contains("greet"));
            host.call("plugins.grant", "{\"pluginId\":\"greet\",\"capability\":\"agent.tool.register\"}");
            mcp.awaitEvent("toolsChanged", e -> true);
            await().atMost(Duration.ofSeconds(30)).until(() -> mcp.listTools().toString().contains(GREETING_TOOL));
            JsonNode hello = mcp.call(GREETING_TOOL, "{}");
            assertThat(McpClient.text(hello)).as(hello.toString()).isEqualTo("hello from http");
            JsonNode rows = host.call("audit.query", "{\"limit\":100}").path("rows");
            assertThat(rows.toString()).contains("\"toolName\":\"ToolSearch\"").contains(GREETING_TOOL);

            // a bridged server's elicitation during the MCP client's call is the JSON-RPC client's to answer too
            await().atMost(Duration.ofSeconds(60)).until(() -> mcp.listTools().toString().contains("mcp_test_ask"));
            Thread answerer = inBackground(() -> {
                JsonNode card = host.awaitMessage(m -> "permission.request".equals(m.path("method").asText())
                        && "mcp_test_ask".equals(m.path("params").path("toolName").asText()));
                host.call("permissions.resolve", "{\"requestId\":\"" + card.path("params").path("requestId").asText()
                        + "\",\"decision\":\"allow-once\"}");
                JsonNode ask = host.awaitMessage(m -> "ask.request".equals(m.path("method").asText()));
                host.call("asks.resolve", "{\"requestId\":\"" + ask.path("params").path("requestId").asText()
                        + "\",\"answers\":[\"green\",null,null]}");
            });
            JsonNode asked = mcp.call("mcp_test_ask", "{}");
            answerer.join(60_000);
            assertThat(McpClient.text(asked)).as(asked.toString()).isEqualTo("{\"action\":\"accept\",\"content\":{\"color\":\"green\"}}");
            assertThat(mcp.events("elicitation")).isEmpty();
        }
    }

    /** What the JSON-RPC client does while the MCP client's call waits: on a thread of its own, started. */
    private static Thread inBackground(Answerer answerer) {
        Thread t = new Thread(() -> {
            try {
                answerer.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        return t;
    }

    private interface Answerer {
        void run() throws Exception;
    }
}
