package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static pi.host.launcher.McpFixture.names;
import static pi.host.launcher.McpFixture.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.ServerSocket;
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
 * A server's life under the bridge, with real processes: the rug-pull guard, a crash in the middle of a
 * call and the restart, a server that stays down for a while (its tools answer unavailable, the backoff),
 * abort (an MCP cancellation reaches the server) and the per-server timeout, edits of {@code mcp.json}
 * while the host runs, elicitation as {@code ask.request}, and a streamable HTTP server.
 */
class McpServerLifecycleIT {

    @TempDir
    Path data;
    @TempDir
    Path markers;

    /** Pins the rug pull: a grant given for one definition of an MCP tool must not cover a changed one. */
    @Test
    void changedDefinitionDropsTheSessionGrant() throws Exception {
        McpFixture.configure(data, Map.of("test", McpFixture.testServer(markers)));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            mcp.awaitState("test", "ready");
            String session = mcp.session("{}");
            mcp.activate(session, "mcp_test_victim");
            int first = mcp.start(session, "v1", "mcp_test_victim", "{\"text\":\"a\"}");
            mcp.resolve(mcp.card("v1"), "allow-session");
            assertThat(text(mcp.result(first))).isEqualTo("victim: a");
            assertThat(mcp.result(mcp.start(session, "v2", "mcp_test_victim", "{\"text\":\"b\"}")).get("ok")
                    .asBoolean()).isTrue();
            assertThat(mcp.cards("v2")).as("the grant covers the same definition").isZero();

            // the server changes the tool's description (and says so with tools/list_changed)
            mcp.activate(session, "mcp_test_rug");
            int rug = mcp.start(session, "r1", "mcp_test_rug", "{}");
            mcp.resolve(mcp.card("r1"), "allow-once");
            assertThat(text(mcp.result(rug))).isEqualTo("changed");
            mcp.notification("tools.changed", p -> p.path("added").toString().contains("mcp_test_victim"));
            mcp.activate(session, "mcp_test_victim");
            JsonNode described = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}");
            assertThat(described.toString()).contains("id_rsa");

            int third = mcp.start(session, "v3", "mcp_test_victim", "{\"text\":\"c\"}");
            JsonNode card = mcp.card("v3");
            assertThat(card.get("reason").asText()).startsWith("MCP server tool requires approval")
                    .contains("definition").contains("changed");
            mcp.resolve(card, "deny");
            assertThat(mcp.result(third).get("errorCode").asText()).isEqualTo("TOOL_DENIED");

            JsonNode rows = host.call("audit.query", "{\"sessionId\":\"" + session + "\",\"toolName\":\"mcp_test_victim\"}")
                    .get("rows");
            String before = null;
            String after = null;
            for (JsonNode r : rows) {
                String call = r.get("toolCallId").asText();
                if (call.equals("v1")) {
                    before = r.get("definitionHash").asText();
                } else if (call.equals("v3")) {
                    after = r.get("definitionHash").asText();
                }
            }
            assertThat(before).startsWith("sha256:");
            assertThat(after).startsWith("sha256:").isNotEqualTo(before);
        }
    }

    @Test
    void crashAbortTimeoutAndRestart() throws Exception {
        ObjectNode shortBudget = McpFixture.testServer(markers).put("timeoutMs", 1500);
        McpFixture.configure(data, Map.of("test", McpFixture.testServer(markers), "short", shortBudget));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            long pid = mcp.awaitState("test", "ready").get("pid").asLong();
            mcp.awaitState("short", "ready");
            String session = mcp.session("{\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_test_slow");

            // abort: the call ends TOOL_ABORTED and the server hears notifications/cancelled
            int aborted = mcp.start(session, "a1", "mcp_test_slow", "{\"ms\":30000}");
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(markers.resolve("slow-started-30000")));
            await().atMost(Duration.ofSeconds(20)).until(() -> host.call("tools.abort",
                    "{\"sessionId\":\"" + session + "\",\"toolCallId\":\"a1\"}").get("aborted").asBoolean());
            assertThat(mcp.result(aborted).get("errorCode").asText()).isEqualTo("TOOL_ABORTED");
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(markers.resolve("cancelled")));

            // the server's own budget: TOOL_TIMEOUT with the effective timeoutMs
            mcp.activate(session, "mcp_short_slow");
            JsonNode late = mcp.result(mcp.start(session, "t1", "mcp_short_slow", "{\"ms\":20000}"));
            assertThat(late.get("errorCode").asText()).isEqualTo("TOOL_TIMEOUT");
            assertThat(late.get("details").get("timeoutMs").asLong()).isEqualTo(1500);

            // the server dies in the middle of a call: the call ends at once, the server comes back
            int crashed = mcp.start(session, "k1", "mcp_test_slow", "{\"ms\":29000}");
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(markers.resolve("slow-started-29000")));
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            JsonNode unavailable = mcp.result(crashed);
            assertThat(unavailable.get("errorCode").asText()).isEqualTo("MCP_SERVER_UNAVAILABLE");
            assertThat(text(unavailable)).contains("exited");
            JsonNode back = mcp.awaitServer("test", s -> s.get("state").asText().equals("ready")
                    && s.get("pid").asLong() != pid);
            assertThat(names(back.get("tools"))).contains("mcp_test_slow");
            JsonNode again = mcp.result(mcp.start(session, "k2", "mcp_test_slow", "{\"ms\":1}"));
            assertThat(text(again)).isEqualTo("slept 1");
        }
    }

    /**
     * A server that dies and cannot start again for a while: its tools stay listed and answer
     * {@code MCP_SERVER_UNAVAILABLE} at once (nothing runs, nothing hangs), the restarts come after 1 s,
     * then 2 s, and once it can start again it is back without an edit of {@code mcp.json}.
     */
    @Test
    void aServerThatIsDownAnswersUnavailableUntilTheBackoffBringsItBack() throws Exception {
        Path blocked = markers.resolve("blocked");
        ObjectNode flaky = McpFixture.testServer(markers);
        flaky.put("command", "sh");
        flaky.putArray("args").add("-c").add("if [ -e '" + blocked + "' ]; then echo blocked >&2; exit 1; fi; exec node '"
                + McpFixture.resource("mcp/test-server.cjs") + "'");
        McpFixture.configure(data, Map.of("flaky", flaky));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            long pid = mcp.awaitState("flaky", "ready").get("pid").asLong();
            String session = mcp.session("{\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_flaky_touch");

            Files.writeString(blocked, "");
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            // a restart was refused by the blocked start
            JsonNode down = mcp.awaitServer("flaky", s -> s.get("state").asText().equals("failed")
                    && s.get("stderrTail").asText().contains("blocked"));
            assertThat(down.get("error").asText()).contains("exited with status 1");
            assertThat(names(down.get("tools"))).as("its tools stay listed while it is down").contains("mcp_flaky_touch");
            JsonNode unavailable = mcp.result(mcp.start(session, "d1", "mcp_flaky_touch", "{\"name\":\"while-down\"}"));
            assertThat(unavailable.get("errorCode").asText()).isEqualTo("MCP_SERVER_UNAVAILABLE");
            assertThat(text(unavailable)).contains("the MCP server 'flaky' is not available (failed: ");
            assertThat(markers.resolve("while-down")).doesNotExist();

            Files.delete(blocked);
            JsonNode back = mcp.awaitServer("flaky", s -> s.get("state").asText().equals("ready")
                    && s.get("pid").asLong() != pid);
            assertThat(back.get("error").isNull()).isTrue();
            assertThat(mcp.result(mcp.start(session, "d2", "mcp_flaky_touch", "{\"name\":\"back\"}")).get("ok")
                    .asBoolean()).isTrue();
            assertThat(markers.resolve("back")).exists();

            // the backoff as mcp.changed told it: 1 s after the crash, 2 s after the first failed restart
            List<String> errors = new ArrayList<>();
            for (JsonNode m : host.messages()) {
                if ("mcp.changed".equals(m.path("method").asText())) {
                    for (JsonNode s : m.path("params").path("servers")) {
                        errors.add(s.path("error").asText());
                    }
                }
            }
            assertThat(errors).anyMatch(e -> e.contains("exited") && e.endsWith("restarting in 1 s (attempt 2 of 5)"));
            assertThat(errors).anyMatch(e -> e.endsWith("restarting in 2 s (attempt 3 of 5)"));
        }
    }

    /**
     * Pins that the health check runs for a server configured only after the host started without any
     * (the bridge starts its timers with the first configured server, not before): a server that stops
     * answering in the middle of a call ends the call once its ping goes unanswered.
     */
    @Test
    void aServerConfiguredAfterTheStartIsHealthChecked() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            String session = mcp.session("{\"permissionMode\":\"auto\"}"); // after the first answer
            McpFixture.configure(data, Map.of("late", McpFixture.testServer(markers)));
            long pid = mcp.awaitState("late", "ready").get("pid").asLong();
            mcp.activate(session, "mcp_late_slow");
            int call = mcp.start(session, "h1", "mcp_late_slow", "{\"ms\":40000}");
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(markers.resolve("slow-started-40000")));
            ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
            java.util.List<ProcessHandle> frozen = new java.util.ArrayList<>(server.descendants().toList());
            frozen.add(server);
            try {
                signal("STOP", frozen); // alive, silent: only a ping can tell
                JsonNode r = mcp.result(call);
                assertThat(r.get("errorCode").asText()).as(r.toString()).isEqualTo("MCP_SERVER_UNAVAILABLE");
                assertThat(text(r)).contains("stopped answering");
            } finally {
                signal("KILL", frozen);
            }
        }
    }

    private static void signal(String name, java.util.List<ProcessHandle> processes) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("kill", "-" + name));
        processes.forEach(p -> cmd.add(Long.toString(p.pid())));
        new ProcessBuilder(cmd).redirectErrorStream(true).start().waitFor();
    }

    @Test
    void editsOfMcpJsonApplyWhileTheHostRuns() throws Exception {
        Map<String, JsonNode> servers = new LinkedHashMap<>();
        servers.put("one", McpFixture.testServer(markers));
        McpFixture.configure(data, servers);
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            long pidOne = mcp.awaitState("one", "ready").get("pid").asLong();

            // added
            servers.put("two", McpFixture.testServer(markers));
            McpFixture.configure(data, servers);
            assertThat(names(mcp.awaitState("two", "ready").get("tools"))).contains("mcp_two_touch");
            JsonNode changed = mcp.notification("mcp.changed", p -> p.get("servers").toString().contains("\"two\""));
            assertThat(changed.get("servers").isArray()).isTrue();
            assertThat(mcp.server("one").get("pid").asLong()).as("an unchanged entry keeps running").isEqualTo(pidOne);

            // a broken file is reported and stops nothing
            Files.writeString(data.resolve("mcp.json"), "{\"mcpServers\": {");
            JsonNode file = mcp.awaitState("mcp.json", "failed");
            assertThat(file.get("error").asText()).contains("not valid JSON");
            assertThat(mcp.server("one").get("state").asText()).isEqualTo("ready");

            // changed (restarted with its new entry), disabled, removed
            ObjectNode oneAgain = McpFixture.testServer(markers);
            ((ObjectNode) oneAgain.get("env")).put("CHANGED", "yes");
            servers.put("one", oneAgain);
            servers.put("two", McpFixture.testServer(markers).put("disabled", true));
            McpFixture.configure(data, servers);
            mcp.awaitServer("one", s -> s.get("state").asText().equals("ready") && s.get("pid").asLong() != pidOne);
            JsonNode two = mcp.awaitState("two", "disabled");
            assertThat(names(two.get("tools"))).isEmpty();
            servers.remove("two");
            McpFixture.configure(data, servers);
            mcp.awaitAbsent("two");
            assertThat(host.call("tools.list", "{\"sessionId\":\"" + mcp.session("{}") + "\"}").toString())
                    .contains("mcp_one_touch").doesNotContain("mcp_two_");
            assertThat(ProcessHandle.of(pidOne)).as("the replaced server's process is gone").isEmpty();
        }
    }

    @Test
    void elicitationBecomesAnAskRequestOfTheCallingSession() throws Exception {
        McpFixture.configure(data, Map.of("test", McpFixture.testServer(markers)));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            mcp.awaitState("test", "ready");
            String session = mcp.session("{\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_test_ask");

            int asked = mcp.start(session, "e1", "mcp_test_ask", "{}");
            JsonNode ask = mcp.notification("ask.request", p -> p.path("toolCallId").asText().equals("e1"));
            assertThat(ask.get("sessionId").asText()).isEqualTo(session);
            JsonNode questions = ask.get("questions");
            assertThat(questions).hasSize(3);
            assertThat(questions.get(0).get("question").asText()).contains("The MCP server 'test' asks: Pick a color");
            assertThat(names(questions.get(0).get("options"))).containsExactly("red", "green");
            assertThat(names(questions.get(2).get("options"))).containsExactly("yes", "no");
            host.call("asks.resolve", "{\"requestId\":\"" + ask.get("requestId").asText()
                    + "\",\"answers\":[\"green\",\"3\",\"yes\"]}");
            JsonNode accepted = McpFixture.JSON.readTree(text(mcp.result(asked)));
            assertThat(accepted.get("action").asText()).isEqualTo("accept");
            assertThat(accepted.get("content").get("color").asText()).isEqualTo("green");
            assertThat(accepted.get("content").get("count").asInt()).isEqualTo(3);
            assertThat(accepted.get("content").get("ok").asBoolean()).isTrue();

            // skipped: declined
            int skipped = mcp.start(session, "e2", "mcp_test_ask", "{}");
            ask = mcp.notification("ask.request", p -> p.path("toolCallId").asText().equals("e2"));
            host.call("asks.resolve", "{\"requestId\":\"" + ask.get("requestId").asText()
                    + "\",\"answers\":[null,null,null]}");
            assertThat(McpFixture.JSON.readTree(text(mcp.result(skipped))).get("action").asText()).isEqualTo("decline");
        }
    }

    /**
     * Streamable HTTP servers: server-everything's echo over HTTP, and the test server in its HTTP mode
     * shows that the entry's {@code headers} (an Authorization header among them) come with the requests;
     * when it dies in the middle of a call, the call ends {@code MCP_SERVER_UNAVAILABLE} and so do the next.
     */
    @Test
    void streamableHttpServer() throws Exception {
        int port = freePort();
        ProcessBuilder pb = new ProcessBuilder("node", McpFixture.npm()
                .resolve("@modelcontextprotocol/server-everything/dist/index.js").toString(), "streamableHttp")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PORT", Integer.toString(port));
        int testPort = freePort();
        ProcessBuilder tb = new ProcessBuilder("node", McpFixture.resource("mcp/test-server.cjs").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        tb.environment().put("PI_HOST_NPM", McpFixture.npm().toString());
        tb.environment().put("PI_TEST_MARKERS", markers.toString());
        tb.environment().put("PI_TEST_HTTP_PORT", Integer.toString(testPort));
        Process server = pb.start();
        Process testServer = tb.start();
        try {
            awaitListening(port);
            awaitListening(testPort);
            ObjectNode http = McpFixture.JSON.createObjectNode().put("url", "http://127.0.0.1:" + port + "/mcp");
            http.putObject("headers").put("X-Test", "pi-host");
            ObjectNode withHeaders = McpFixture.JSON.createObjectNode().put("url", "http://127.0.0.1:" + testPort + "/mcp");
            withHeaders.putObject("headers").put("Authorization", "Bearer token-of-the-entry").put("X-Test", "pi-host");
            McpFixture.configure(data, Map.of("web", http, "headers", withHeaders));
            try (HostProcess host = HostProcess.serve(data)) {
                McpFixture mcp = new McpFixture(host);
                JsonNode web = mcp.awaitState("web", "ready");
                assertThat(web.get("transport").asText()).isEqualTo("http");
                assertThat(names(web.get("tools"))).contains("mcp_web_echo");
                String session = mcp.session("{\"permissionMode\":\"auto\"}");
                mcp.activate(session, "mcp_web_echo");
                assertThat(text(mcp.result(mcp.start(session, "h1", "mcp_web_echo", "{\"message\":\"over http\"}"))))
                        .isEqualTo("Echo: over http");

                mcp.awaitState("headers", "ready");
                mcp.activate(session, "mcp_headers_headers");
                JsonNode sent = McpFixture.JSON.readTree(text(mcp.result(mcp.start(session, "h2", "mcp_headers_headers",
                        "{}"))));
                assertThat(sent.path("authorization").asText()).as(sent.toString()).isEqualTo("Bearer token-of-the-entry");
                assertThat(sent.path("x-test").asText()).isEqualTo("pi-host");

                // the HTTP server dies in the middle of a call: the call ends unavailable, it does not hang
                mcp.activate(session, "mcp_headers_slow");
                int call = mcp.start(session, "h3", "mcp_headers_slow", "{\"ms\":40000}");
                await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(markers.resolve("slow-started-40000")));
                testServer.destroyForcibly();
                JsonNode gone = mcp.result(call);
                assertThat(gone.get("errorCode").asText()).as(gone.toString()).isEqualTo("MCP_SERVER_UNAVAILABLE");
                assertThat(mcp.awaitState("headers", "failed").get("tools").size()).as("its tools stay listed").isPositive();
                JsonNode down = mcp.result(mcp.start(session, "h4", "mcp_headers_headers", "{}"));
                assertThat(down.get("errorCode").asText()).isEqualTo("MCP_SERVER_UNAVAILABLE");
            }
        } finally {
            server.destroyForcibly();
            testServer.destroyForcibly();
        }
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void awaitListening(int port) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try (java.net.Socket c = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
                return true;
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }
}
