package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to {@code pi-host mcp}, each case with its exact outcome, and the host serving on after
 * it: garbage and non-JSON-RPC lines on stdio, unknown and hidden tools, arguments failing the
 * schema, a second initialize; over HTTP a request without or with a wrong token, a browser Origin,
 * a garbage body, a request after the session was closed; command lines that would widen the
 * exposure (a non-loopback address, rpc cards without HTTP) refused before anything starts.
 */
class McpBadInputIT {

    static {
        // HttpURLConnection drops an Origin header unless restricted headers are allowed (read once, at class init)
        System.setProperty("sun.net.http.allowRestrictedHeaders", "true");
    }

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @TempDir
    Path data;
    @TempDir
    Path workspace;

    private static HostProcess stdio(Path workspace, Path data) throws Exception {
        HostProcess host = HostProcess.start("mcp", "--workspace", workspace.toString(), "--data-dir", data.toString(),
                "--permission-mode", "auto");
        host.send(INIT);
        host.response(1);
        host.send(INITIALIZED);
        return host;
    }

    private static String text(JsonNode response) {
        return response.path("result").path("content").path(0).path("text").asText();
    }

    /** A line that is not JSON is answered -32700 with a null id; the next request is still served. */
    @Test
    void garbageOnStdioIsAParseErrorAndTheHostServesOn() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "a\n");
        try (HostProcess host = stdio(workspace, data)) {
            host.send("this is not json");
            JsonNode error = host.awaitMessage(m -> m.path("error").path("code").asInt() == -32700);
            assertThat(error.get("id").isNull()).isTrue();
            host.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"Read\","
                    + "\"arguments\":{\"path\":\"a.txt\"}}}");
            assertThat(text(host.response(2))).contains("1\ta");
            assertThat(host.badLines()).isEmpty();
        }
    }

    /** JSON that is no JSON-RPC message is answered -32600 with its id; the host serves on. */
    @Test
    void jsonThatIsNoMessageIsAnInvalidRequest() throws Exception {
        try (HostProcess host = stdio(workspace, data)) {
            host.send("{\"id\":7,\"hello\":true}");
            JsonNode error = host.response(7);
            assertThat(error.path("error").path("code").asInt()).isEqualTo(-32600);
            host.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
            assertThat(host.response(8).has("result")).isTrue();
        }
    }

    /** An unknown tool, and a host tool the front does not offer (asktool), are unknown to MCP: -32602, nothing runs. */
    @Test
    void unknownAndHiddenToolsAreRefusedAndNothingRuns() throws Exception {
        try (HostProcess host = stdio(workspace, data)) {
            host.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"NoSuchTool\","
                    + "\"arguments\":{}}}");
            host.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"EnterPlanMode\","
                    + "\"arguments\":{}}}");
            for (int id : new int[] {3, 4}) {
                JsonNode answer = host.response(id);
                assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32602);
                assertThat(answer.path("error").path("message").asText()).startsWith("Unknown tool");
            }
            // the session is still in Agent mode: Write (allowed under auto) writes
            host.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"Write\","
                    + "\"arguments\":{\"path\":\"w.txt\",\"content\":\"w\"}}}");
            assertThat(host.response(5).path("result").path("isError").asBoolean()).isFalse();
            assertThat(workspace.resolve("w.txt")).hasContent("w");
        }
    }

    /** Arguments failing the schema are the pipeline's INVALID_ARGUMENT (a result, audited), and nothing is written. */
    @Test
    void argumentsFailingTheSchemaAreInvalidArgument() throws Exception {
        try (HostProcess host = stdio(workspace, data)) {
            host.send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"Write\","
                    + "\"arguments\":{\"path\":\"bad.txt\",\"content\":42}}}");
            JsonNode answer = host.response(6);
            assertThat(answer.path("result").path("isError").asBoolean()).isTrue();
            assertThat(text(answer)).startsWith("INVALID_ARGUMENT: ");
            assertThat(answer.path("result").path("_meta").path("pi-host/errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            assertThat(workspace.resolve("bad.txt")).doesNotExist();
        }
    }

    /** A second initialize is answered as the first was (the SDK re-initialises); calls go on in the same session. */
    @Test
    void aSecondInitializeIsAnsweredAndTheSessionGoesOn() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "a\n");
        try (HostProcess host = stdio(workspace, data)) {
            host.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"Read\","
                    + "\"arguments\":{\"path\":\"a.txt\"}}}");
            String first = host.response(2).path("result").path("_meta").path("pi-host/sessionId").asText();
            host.send(INIT.replace("\"id\":1", "\"id\":9"));
            JsonNode again = host.response(9);
            assertThat(again.path("result").path("serverInfo").path("name").asText()).isEqualTo("pi-host");
            host.send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"Read\","
                    + "\"arguments\":{\"path\":\"a.txt\"}}}");
            JsonNode after = host.response(10);
            assertThat(text(after)).contains("1\ta");
            assertThat(after.path("result").path("_meta").path("pi-host/sessionId").asText()).isEqualTo(first);
        }
    }

    /** Without --workspace the MCP connection gets a temporary session: its root is the session's scratch dir. */
    @Test
    void withoutAWorkspaceTheSessionIsTemporary() throws Exception {
        try (HostProcess host = HostProcess.start("mcp", "--data-dir", data.toString(), "--permission-mode", "auto")) {
            host.send(INIT);
            host.response(1);
            host.send(INITIALIZED);
            host.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"Write\","
                    + "\"arguments\":{\"path\":\"t.txt\",\"content\":\"t\"}}}");
            JsonNode meta = host.response(2).path("result").path("_meta");
            String session = meta.path("pi-host/sessionId").asText();
            assertThat(data.resolve("scratch").resolve(session).resolve("t.txt")).hasContent("t");
        }
    }

    /**
     * {@code --permission-mode accept-edits} is the session's mode: a Write in the workspace runs without a card,
     * Bash still needs one, and a client without elicitation is denied it (nothing runs).
     */
    @Test
    void acceptEditsIsTheSessionsPermissionMode() throws Exception {
        Path ran = workspace.resolve("bash-ran");
        try (HostProcess host = HostProcess.start("mcp", "--workspace", workspace.toString(), "--data-dir",
                data.toString(), "--permission-mode", "accept-edits")) {
            host.send(INIT);
            host.response(1);
            host.send(INITIALIZED);
            host.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"Write\","
                    + "\"arguments\":{\"path\":\"e.txt\",\"content\":\"e\"}}}");
            assertThat(host.response(2).path("result").path("isError").asBoolean()).isFalse();
            assertThat(workspace.resolve("e.txt")).hasContent("e");
            host.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"Bash\","
                    + "\"arguments\":{\"command\":\"touch " + ran + "\"}}}");
            assertThat(text(host.response(3))).isEqualTo("TOOL_DENIED: user denied permission");
            assertThat(ran).doesNotExist();
        }
    }

    /** End of input stops the host (exit 0): there is no request after close on stdio. */
    @Test
    void endOfInputStopsTheHost() throws Exception {
        try (HostProcess host = stdio(workspace, data)) {
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(60))).isZero();
        }
    }

    // ---- HTTP -------------------------------------------------------------------------------------

    /** One HTTP answer (java.net.http is not readable from the launcher's module: plain HttpURLConnection). */
    record Answer(int status, String body, java.util.Map<String, java.util.List<String>> headers) {
        String header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    private static Answer send(String method, String url, String token, String body, String session, String origin)
            throws Exception {
        return send(method, url, token, body, session, origin, null);
    }

    private static Answer send(String method, String url, String token, String body, String session, String origin,
            String hostHeader) throws Exception {
        java.net.HttpURLConnection c = (java.net.HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setRequestMethod(method);
        c.setConnectTimeout(30_000);
        c.setReadTimeout(30_000);
        c.setRequestProperty("Content-Type", "application/json");
        c.setRequestProperty("Accept", "application/json, text/event-stream");
        if (token != null) {
            c.setRequestProperty("Authorization", "Bearer " + token);
        }
        if (session != null) {
            c.setRequestProperty("Mcp-Session-Id", session);
        }
        if (origin != null) {
            c.setRequestProperty("Origin", origin);
        }
        if (hostHeader != null) {
            c.setRequestProperty("Host", hostHeader);
        }
        if (body != null) {
            c.setDoOutput(true);
            try (java.io.OutputStream out = c.getOutputStream()) {
                out.write(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        int status = c.getResponseCode();
        java.io.InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream();
        String text = in == null ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return new Answer(status, text, c.getHeaderFields());
    }

    private static Answer post(String url, String token, String body, String session, String origin) throws Exception {
        return send("POST", url, token, body, session, origin);
    }

    /**
     * Over HTTP: no token, a wrong token → 401 and the call never reaches the host (nothing written);
     * a browser Origin → 403; a garbage body → 400; after DELETE the session id → 404; the host keeps
     * serving a proper client all along.
     */
    @Test
    void httpRefusalsAndTheHostServesOn() throws Exception {
        String write = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"Write\","
                + "\"arguments\":{\"path\":\"h.txt\",\"content\":\"h\"}}}";
        try (HostProcess host = HostProcess.start("mcp", "--http", "127.0.0.1:0", "--workspace", workspace.toString(),
                "--data-dir", data.toString(), "--permission-mode", "auto")) {
            String[] at = McpHttpIT.endpoint(host);
            Answer none = post(at[0], null, INIT, null, null);
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.header("WWW-Authenticate")).startsWith("Bearer");
            assertThat(post(at[0], "not-the-token", INIT, null, null).status()).isEqualTo(401);

            Answer init = post(at[0], at[1], INIT, null, null);
            assertThat(init.status()).as(init.body()).isEqualTo(200);
            String session = init.header("Mcp-Session-Id");
            assertThat(session).isNotEmpty();
            post(at[0], at[1], INITIALIZED, session, null);

            assertThat(post(at[0], null, write, session, null).status()).isEqualTo(401);
            assertThat(post(at[0], "wrong", write, session, null).status()).isEqualTo(401);
            assertThat(workspace.resolve("h.txt")).doesNotExist();

            assertThat(post(at[0], at[1], write, session, "http://evil.example").status()).isEqualTo(403);
            // a rebound name pointing at the loopback address: refused on its Host header
            assertThat(send("POST", at[0], at[1], write, session, null, "evil.example").status()).isEqualTo(421);
            assertThat(workspace.resolve("h.txt")).doesNotExist();

            Answer garbage = post(at[0], at[1], "garbage{", session, null);
            assertThat(garbage.status()).isEqualTo(400);

            Answer ok = post(at[0], at[1], write, session, null);
            assertThat(ok.status()).as(ok.body()).isEqualTo(200);
            assertThat(ok.body()).contains("\"isError\":false");
            assertThat(workspace.resolve("h.txt")).hasContent("h");

            assertThat(send("DELETE", at[0], at[1], null, session, null).status()).isEqualTo(200);
            Answer after = post(at[0], at[1], write.replace("h.txt", "late.txt"), session, null);
            assertThat(after.status()).isEqualTo(404);
            assertThat(workspace.resolve("late.txt")).doesNotExist();

            assertThat(post(at[0], at[1], INIT, null, null).status()).isEqualTo(200); // still serving
        }
    }

    /** A front that cannot serve (its port is taken) says so and exits 1. */
    @Test
    void aTakenPortIsAFailedStart() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
                HostProcess host = HostProcess.start("mcp", "--http", "127.0.0.1:" + taken.getLocalPort(),
                        "--data-dir", data.toString())) {
            assertThat(host.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
            assertThat(host.stderr()).contains("pi-host mcp: cannot serve");
        }
    }

    /** A non-loopback address without --allow-remote, rpc cards without HTTP, a short token: exit 2, nothing served. */
    @Test
    void commandLinesThatWouldWidenExposureAreUsageErrors() throws Exception {
        Path shortToken = workspace.resolve("token");
        Files.writeString(shortToken, "short\n");
        String[][] cases = {
            {"mcp", "--http", "0.0.0.0:0", "--data-dir", data.toString()},
            {"mcp", "--approver", "rpc", "--data-dir", data.toString()},
            {"mcp", "--http", "127.0.0.1:0", "--token-file", shortToken.toString(), "--data-dir", data.toString()},
            {"mcp", "--token-file", shortToken.toString(), "--data-dir", data.toString()},
            {"mcp", "--permission-mode", "yolo", "--data-dir", data.toString()},
        };
        String[] says = {"not a loopback address", "--approver rpc needs --http", "at least 32 are needed",
            "--token-file only applies with --http", "--permission-mode must be ask, accept-edits or auto"};
        for (int i = 0; i < cases.length; i++) {
            try (HostProcess host = HostProcess.start(cases[i])) {
                assertThat(host.awaitExit(Duration.ofSeconds(30))).as(String.join(" ", cases[i])).isEqualTo(2);
                assertThat(host.stderr()).contains(says[i]);
                assertThat(host.messages()).isEmpty();
            }
        }
        assertThat(data.resolve("felix-cache")).doesNotExist();
    }
}
