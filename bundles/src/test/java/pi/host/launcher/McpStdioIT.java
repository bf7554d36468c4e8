package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pi-host mcp} over stdio, driven by a real MCP client (the official TypeScript SDK): the tool
 * list, a Read, a Write asked through elicitation (declined: nothing written; accepted: written, with
 * its review record), a client without elicitation denied, Bash streamed and cancelled, and the same
 * calls in the audit that {@code serve} reads from the same data dir (which leaves the front's
 * optional bundle set installed but not started).
 */
class McpStdioIT {

    @TempDir
    Path data;
    @TempDir
    Path workspace;

    /** The tool list is the Agent catalog's working tools, with the host's names and schemas; Read reads. */
    @Test
    void listsTheAgentToolsAndReadsAFile() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "first\nsecond\n");
        try (McpClient mcp = McpClient.start()) {
            JsonNode init = mcp.connectStdio(false, "--workspace", workspace.toString(), "--data-dir", data.toString());
            assertThat(init.path("serverInfo").path("name").asText()).isEqualTo("pi-host");
            assertThat(init.path("capabilities").path("tools").path("listChanged").asBoolean()).isTrue();

            JsonNode tools = mcp.listTools();
            assertThat(McpClient.toolNames(tools)).containsExactlyInAnyOrder("Bash", "Edit", "Glob", "Grep", "Read", "TodoWrite",
                    "Write");
            JsonNode read = null;
            for (JsonNode t : tools.path("tools")) {
                if (t.path("name").asText().equals("Read")) {
                    read = t;
                }
            }
            assertThat(read.path("inputSchema").path("properties").has("path")).isTrue();
            assertThat(read.path("_meta").path("pi-host/risk").asText()).isEqualTo("low");

            JsonNode result = mcp.call("Read", "{\"path\":\"notes.txt\"}");
            assertThat(result.path("isError").asBoolean()).isFalse();
            assertThat(McpClient.text(result)).startsWith("[notes.txt#").contains("1\tfirst").contains("2\tsecond");
            assertThat(result.path("structuredContent").path("totalLines").asInt()).isEqualTo(2);
            assertThat(result.path("_meta").path("pi-host/traceId").asText()).startsWith("tr_");
            assertThat(result.path("_meta").path("pi-host/root").asText()).isEqualTo("workspace");
        }
    }

    /**
     * The servers of the data dir's {@code mcp.json} are offered too: their tools are listed and run (the host
     * activates them for the MCP client), and a server's own {@code tools/list_changed} (the test server's rug
     * pull changes a description) reaches the client as {@code list_changed} with the new definition.
     */
    @Test
    void bridgedMcpToolsAreOfferedAndTheirChangesAreListChanged() throws Exception {
        Path markers = Files.createDirectories(data.resolve("markers"));
        // a budget well under the client's wait, so a question nobody answers shows as TOOL_TIMEOUT, not as a hang
        McpFixture.configure(data, java.util.Map.of("test", McpFixture.testServer(markers).put("timeoutMs", 20_000)));
        try (McpClient mcp = McpClient.start()) {
            mcp.connectStdio(false, "--workspace", workspace.toString(), "--data-dir", data.toString(),
                    "--permission-mode", "auto");
            await().atMost(Duration.ofSeconds(60)).until(() -> McpClient.toolNames(mcp.listTools()).contains("mcp_test_touch"));
            assertThat(McpClient.toolNames(mcp.listTools())).contains("Read", "mcp_test_victim", "mcp_test_rug");
            JsonNode touched = mcp.call("mcp_test_touch", "{\"name\":\"from-mcp-client\"}");
            assertThat(McpClient.text(touched)).as(touched.toString()).isEqualTo("touched from-mcp-client");
            assertThat(markers.resolve("from-mcp-client")).exists();

            int changes = mcp.events("toolsChanged").size();
            assertThat(McpClient.text(mcp.call("mcp_test_rug", "{}"))).isEqualTo("changed");
            await().atMost(Duration.ofSeconds(60)).until(() -> mcp.events("toolsChanged").size() > changes);
            await().atMost(Duration.ofSeconds(60)).until(() -> description(mcp.listTools(), "mcp_test_victim")
                    .contains("id_rsa"));

            // a bridged server's own elicitation during the MCP client's call: nobody on this side is asked,
            // so it is declined at once (the call goes on), instead of waiting for the call's budget
            JsonNode asked = mcp.call("mcp_test_ask", "{}");
            assertThat(McpClient.text(asked)).as(asked.toString()).isEqualTo("{\"action\":\"decline\"}");

            // a result over the host's bounds is cut before the MCP client sees it, and says so
            JsonNode flood = mcp.call("mcp_test_flood", "{}");
            assertThat(flood.path("isError").asBoolean()).isFalse();
            assertThat(flood.path("_meta").path("pi-host/truncated").asBoolean()).as(flood.path("_meta").toString()).isTrue();
            assertThat(McpClient.text(flood).length()).isLessThan(300_000);
        }
    }

    private static String description(JsonNode listing, String tool) {
        for (JsonNode t : listing.path("tools")) {
            if (t.path("name").asText().equals(tool)) {
                return t.path("description").asText();
            }
        }
        return "";
    }

    /**
     * A Write under ask becomes an elicitation with the card (tool, risk, reason, preview): declined,
     * the host denies and nothing is written; cancelled, the same; accepted once, it is written and the
     * result carries the review record.
     */
    @Test
    void writeIsAskedThroughElicitation() throws Exception {
        Path target = workspace.resolve("out.txt");
        try (McpClient mcp = McpClient.start()) {
            mcp.connectStdio(true, "--workspace", workspace.toString(), "--data-dir", data.toString(),
                    "--permission-mode", "ask");

            mcp.answer("decline", null);
            JsonNode declined = mcp.call("Write", "{\"path\":\"out.txt\",\"content\":\"hello\\n\"}");
            assertThat(declined.path("isError").asBoolean()).isTrue();
            assertThat(McpClient.text(declined)).isEqualTo("TOOL_DENIED: user denied permission");
            assertThat(target).doesNotExist();
            JsonNode asked = mcp.events("elicitation").get(0).path("params");
            assertThat(asked.path("message").asText()).contains("Write").contains("high risk").contains("out.txt");
            assertThat(asked.path("_meta").path("pi-host/card").path("toolName").asText()).isEqualTo("Write");
            assertThat(asked.path("requestedSchema").path("required").get(0).asText()).isEqualTo("decision");

            mcp.answer("cancel", null);
            JsonNode cancelled = mcp.call("Write", "{\"path\":\"out.txt\",\"content\":\"hello\\n\"}");
            assertThat(McpClient.text(cancelled)).isEqualTo("TOOL_DENIED: user denied permission");
            assertThat(target).doesNotExist();

            mcp.answer("accept", "allow-once");
            JsonNode written = mcp.call("Write", "{\"path\":\"out.txt\",\"content\":\"hello\\n\"}");
            assertThat(written.path("isError").asBoolean()).as(written.toString()).isFalse();
            assertThat(target).hasContent("hello");
            JsonNode review = written.path("_meta").path("pi-host/review");
            assertThat(review.isArray() && review.size() == 1).as(written.toString()).isTrue();
            assertThat(mcp.events("elicitation")).hasSize(3);
        }
    }

    /** A client that did not declare elicitation cannot be asked: the card is denied and the tool never runs. */
    @Test
    void aClientWithoutElicitationIsDenied() throws Exception {
        Path marker = workspace.resolve("ran");
        try (McpClient mcp = McpClient.start()) {
            mcp.connectStdio(false, "--workspace", workspace.toString(), "--data-dir", data.toString(),
                    "--permission-mode", "ask");
            JsonNode write = mcp.call("Write", "{\"path\":\"x.txt\",\"content\":\"x\"}");
            assertThat(McpClient.text(write)).isEqualTo("TOOL_DENIED: user denied permission");
            JsonNode bash = mcp.call("Bash", "{\"command\":\"touch " + marker + "\"}");
            assertThat(McpClient.text(bash)).isEqualTo("TOOL_DENIED: user denied permission");
            assertThat(workspace.resolve("x.txt")).doesNotExist();
            assertThat(marker).doesNotExist();
        }
    }

    /**
     * Bash output streams as progress; the client's cancellation aborts the call through tools.abort and
     * the process tree is gone; the audit (read by serve from the same data dir) has every call the
     * MCP client made, aborted Bash included, each in a turn of its own.
     */
    @Test
    void bashStreamsAndIsCancelledAndTheAuditShowsTheCalls() throws Exception {
        Path pidFile = workspace.resolve("pid");
        List<String> traces = new ArrayList<>();
        try (McpClient mcp = McpClient.start()) {
            mcp.connectStdio(true, "--workspace", workspace.toString(), "--data-dir", data.toString(),
                    "--permission-mode", "auto");
            JsonNode listed = mcp.call("Glob", "{\"pattern\":\"*\"}");
            traces.add(listed.path("_meta").path("pi-host/traceId").asText());
            // the pipeline's timeout, as for tools.execute: the code leads the text
            JsonNode late = mcp.call("Bash", "{\"command\":\"sleep 30\",\"timeout\":1}");
            assertThat(late.path("isError").asBoolean()).isTrue();
            assertThat(McpClient.text(late)).startsWith("TOOL_TIMEOUT: The command did not finish within 1000 ms");
            JsonNode answer = mcp.callCancellingOnProgress("Bash",
                    "{\"command\":\"echo $$ > pid; echo started; sleep 120\"}");
            assertThat(answer.path("ok").asBoolean()).as(answer.toString()).isFalse();
            // the SDK rejects a cancelled request at once with its reason (RequestTimeout code -32001)
            assertThat(answer.path("error").asText()).contains("the test cancels on the first output");
            assertThat(mcp.events("progress").get(0).path("params").path("message").asText()).contains("started");
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
            mcp.closeSession();
        }
        try (HostProcess serve = HostProcess.serve(data)) {
            // the optional set of pi-host mcp stays in the cache, stopped: serve neither starts nor resolves it
            for (JsonNode b : serve.startedInfo().path("bundles")) {
                String name = b.path("symbolicName").asText();
                if (name.equals("pi.host.mcpserver") || name.startsWith("org.eclipse.jetty")) {
                    assertThat(b.path("state").asText()).as(name).isEqualTo("INSTALLED");
                }
            }
            JsonNode rows = serve.call("audit.query", "{\"limit\":100}").path("rows");
            JsonNode glob = null;
            JsonNode bash = null;
            for (JsonNode row : rows) {
                if (traces.contains(row.path("traceId").asText())) {
                    glob = row;
                }
                if (row.path("toolName").asText().equals("Bash") && !row.path("errorCode").asText().equals("TOOL_TIMEOUT")) {
                    bash = row;
                }
            }
            assertThat(glob).as(rows.toString()).isNotNull();
            assertThat(glob.path("turnId").asText()).startsWith("mcp-turn-");
            assertThat(bash).as(rows.toString()).isNotNull();
            assertThat(bash.path("errorCode").asText()).isEqualTo("TOOL_ABORTED");
            assertThat(rows).anySatisfy(r -> assertThat(r.path("errorCode").asText()).isEqualTo("TOOL_TIMEOUT"));
            assertThat(bash.path("sessionId").asText()).isEqualTo(glob.path("sessionId").asText());
            assertThat(bash.path("turnId").asText()).isNotEqualTo(glob.path("turnId").asText());
        }
    }
}
