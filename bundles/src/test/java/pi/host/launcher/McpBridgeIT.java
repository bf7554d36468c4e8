package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.launcher.McpFixture.names;
import static pi.host.launcher.McpFixture.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP bridge end to end through a real {@code pi-host serve --stdio} with real npm servers
 * (server-everything and the TypeScript SDK test server of these tests): configured servers become
 * on-demand {@code mcp_<server>_<tool>} tools that take the one pipeline (ToolSearch, the card under ask,
 * deny runs nothing, auto, Plan's hard deny, the audit row), results are mapped, and a project's own
 * {@code .mcp.json} never starts anything.
 */
class McpBridgeIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    @TempDir
    Path markers;

    @Test
    void configuredServersAreToolsOfTheOnePipeline() throws Exception {
        McpFixture.configure(data, Map.of("everything", McpFixture.everything(), "test",
                McpFixture.testServer(markers)));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            JsonNode everything = mcp.awaitState("everything", "ready");
            assertThat(everything.get("transport").asText()).isEqualTo("stdio");
            assertThat(names(everything.get("tools"))).contains("mcp_everything_echo",
                    "mcp_everything_get_tiny_image", "mcp_everything_trigger_long_running_operation");
            assertThat(everything.get("stderrTail").asText()).contains("Starting default (STDIO) server");
            assertThat(everything.get("pid").asLong()).isPositive();
            mcp.awaitState("test", "ready");
            String session = mcp.session("{\"projectRoot\":\"" + project + "\"}");

            // on demand: listed compactly, not callable before ToolSearch activates it
            JsonNode list = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}");
            assertThat(list.get("onDemand").toString()).contains("mcp_everything_echo");
            JsonNode early = mcp.result(mcp.start(session, "c0", "mcp_everything_echo", "{\"message\":\"hi\"}"));
            assertThat(early.get("errorCode").asText()).isEqualTo("TOOL_NOT_ACTIVE");

            // under ask: a card with the fixed reason, the arguments and the server's annotations; allow once
            mcp.activate(session, "mcp_everything_echo");
            int echo = mcp.start(session, "c1", "mcp_everything_echo", "{\"message\":\"hi\"}");
            JsonNode card = mcp.card("c1");
            assertThat(card.get("reason").asText()).isEqualTo("MCP server tool requires approval");
            assertThat(card.get("risk").asText()).isEqualTo("medium");
            assertThat(card.get("preview").get("message").asText()).isEqualTo("hi");
            assertThat(card.get("annotations").get("readOnlyHint").asBoolean()).as("shown, not trusted").isTrue();
            mcp.resolve(card, "allow-once");
            JsonNode echoed = mcp.result(echo);
            assertThat(echoed.get("ok").asBoolean()).isTrue();
            assertThat(text(echoed)).isEqualTo("Echo: hi");
            assertThat(echoed.get("details").get("server").asText()).isEqualTo("everything");

            // schema validated by the pipeline before the server sees anything
            JsonNode invalid = mcp.result(mcp.start(session, "c2", "mcp_everything_echo", "{\"message\":42}"));
            assertThat(invalid.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            assertThat(mcp.cards("c2")).isZero();

            // deny: nothing ran
            mcp.activate(session, "mcp_test_touch");
            int touch = mcp.start(session, "c3", "mcp_test_touch", "{\"name\":\"denied\"}");
            mcp.resolve(mcp.card("c3"), "deny");
            JsonNode denied = mcp.result(touch);
            assertThat(denied.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(text(denied)).contains("user denied permission");
            assertThat(markers.resolve("denied")).doesNotExist();

            // results: images and structured content in details, isError as TOOL_FAILED with the server's text
            host.call("session.configure", "{\"sessionId\":\"" + session + "\",\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_everything_get_tiny_image");
            JsonNode image = mcp.result(mcp.start(session, "c4", "mcp_everything_get_tiny_image", "{}"));
            assertThat(image.get("ok").asBoolean()).isTrue();
            assertThat(mcp.cards("c4")).as("auto asks nothing").isZero();
            assertThat(text(image)).contains("[image: image/png");
            assertThat(image.get("details").get("media").get(0).get("mimeType").asText()).isEqualTo("image/png");
            assertThat(image.get("details").get("media").get(0).get("data").asText()).isNotEmpty();
            mcp.activate(session, "mcp_everything_get_structured_content");
            JsonNode structured = mcp.result(mcp.start(session, "c5", "mcp_everything_get_structured_content",
                    "{\"location\":\"Chicago\"}"));
            assertThat(structured.get("details").get("structuredContent").has("temperature")).isTrue();
            mcp.activate(session, "mcp_test_fail");
            JsonNode failed = mcp.result(mcp.start(session, "c6", "mcp_test_fail", "{}"));
            assertThat(failed.get("errorCode").asText()).isEqualTo("TOOL_FAILED");
            assertThat(text(failed)).contains("it broke on purpose");
            JsonNode ran = mcp.result(mcp.start(session, "c7", "mcp_test_touch", "{\"name\":\"allowed\"}"));
            assertThat(ran.get("ok").asBoolean()).isTrue();
            assertThat(markers.resolve("allowed")).exists();

            // descriptions offered to the model are cleaned; a tool named like a builtin stays in its namespace
            mcp.activate(session, "mcp_test_weird");
            JsonNode tools = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}").get("tools");
            String weird = null;
            for (JsonNode t : tools) {
                if (t.get("name").asText().equals("mcp_test_weird")) {
                    weird = t.get("description").asText();
                }
            }
            assertThat(weird).isEqualTo("Red [31mtext[0m with a bidi override and a bell.");
            assertThat(names(mcp.server("test").get("tools"))).contains("mcp_test_Read");
            mcp.activate(session, "mcp_test_Read");
            Files.writeString(project.resolve("notes.txt"), "a builtin's file\n");
            assertThat(text(mcp.result(mcp.start(session, "c8", "Read", "{\"path\":\"notes.txt\"}"))))
                    .as("the builtin Read is still the builtin").contains("a builtin's file");

            // the server's environment: the login PATH and the entry's env, not the host's variables
            mcp.activate(session, "mcp_test_env");
            JsonNode env = McpFixture.JSON.readTree(text(mcp.result(mcp.start(session, "c9", "mcp_test_env", "{}"))));
            assertThat(env.get("env").has("PATH")).isTrue();
            assertThat(env.get("env").get("PI_TEST_MARKERS").asText()).isEqualTo(markers.toString());
            assertThat(env.get("env").has("JAVA_HOME")).isFalse();
            assertThat(env.get("cwd").asText()).isEqualTo(System.getProperty("user.home"));

            // a composer selection activates a server's tools without ToolSearch (a new prompt starts clean)
            JsonNode selected = host.call("prompt.begin", "{\"sessionId\":\"" + session + "\",\"turnId\":\"t2\","
                    + "\"mcpSelection\":{\"serverIds\":[\"test\"]}}");
            assertThat(names(selected.get("activatedTools"))).contains("mcp_test_touch", "mcp_test_env")
                    .noneMatch(n -> n.startsWith("mcp_everything_"));
            assertThat(mcp.result(mcp.start(session, "c9b", "mcp_test_touch", "{\"name\":\"selected\"}"))
                    .get("ok").asBoolean()).isTrue();

            // Plan and Goal: hidden and hard-denied, whatever the permission mode
            host.call("session.configure", "{\"sessionId\":\"" + session + "\",\"mode\":\"plan\"}");
            JsonNode plan = host.call("tools.list", "{\"sessionId\":\"" + session + "\"}");
            assertThat(plan.toString()).doesNotContain("mcp_everything_echo");
            JsonNode modeDenied = mcp.result(mcp.start(session, "c10", "mcp_test_touch", "{\"name\":\"plan\"}"));
            assertThat(modeDenied.get("errorCode").asText()).isEqualTo("MODE_DENIED");
            assertThat(markers.resolve("plan")).doesNotExist();
            host.call("session.configure", "{\"sessionId\":\"" + session + "\",\"mode\":\"goal\"}");
            assertThat(host.call("tools.list", "{\"sessionId\":\"" + session + "\"}").toString()).doesNotContain("mcp_");
            JsonNode goalDenied = mcp.result(mcp.start(session, "c11", "mcp_test_touch", "{\"name\":\"goal\"}"));
            assertThat(goalDenied.get("errorCode").asText()).isEqualTo("MODE_DENIED");
            assertThat(markers.resolve("goal")).doesNotExist();

            // every call has its audit row; MCP rows carry the definition hash the decision applied to
            JsonNode rows = host.call("audit.query", "{\"sessionId\":\"" + session + "\",\"limit\":100}").get("rows");
            assertThat(rows).anySatisfy(r -> {
                assertThat(r.get("toolName").asText()).isEqualTo("mcp_everything_echo");
                assertThat(r.get("ok").asBoolean()).isTrue();
                assertThat(r.get("definitionHash").asText()).startsWith("sha256:");
            });
            assertThat(rows).anySatisfy(r -> {
                assertThat(r.get("toolName").asText()).isEqualTo("mcp_test_touch");
                assertThat(r.get("decision").asText()).isEqualTo("deny");
            });
            assertThat(rows).anySatisfy(r -> {
                assertThat(r.get("toolCallId").asText()).isEqualTo("c11");
                assertThat(r.get("errorCode").asText()).isEqualTo("MODE_DENIED");
            });

            assertThat(host.badLines()).isEmpty();
        }
    }

    /**
     * A result larger than the host's bounds is cut like any tool's (text and details, with the note), and
     * a server id long enough that every exposed name must be cut gives 64-character names that stay apart
     * (the 8 hex digits of SHA-256 over the server id and tool name), each one callable.
     */
    @Test
    void resultsAndNamesStayWithinTheHostsBounds() throws Exception {
        String longId = "a-server-id-so-long-that-every-exposed-tool-name-must-be-cut"; // 60 characters
        McpFixture.configure(data, Map.of("test", McpFixture.testServer(markers), longId,
                McpFixture.testServer(markers)));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            mcp.awaitState("test", "ready");
            String session = mcp.session("{\"permissionMode\":\"auto\"}");

            // 1,000,000 characters of text and 900,000 of image data: under the bridge's message bound, over the host's
            mcp.activate(session, "mcp_test_flood");
            JsonNode flood = mcp.result(mcp.start(session, "f1", "mcp_test_flood", "{}"));
            assertThat(flood.get("ok").asBoolean()).isTrue();
            assertThat(flood.get("truncated").asBoolean()).isTrue();
            assertThat(text(flood).length()).isLessThan(300_000);
            assertThat(text(flood)).contains("[result cut to fit the host's bounds: ")
                    .contains("the text kept its first and last").contains("details cut to 524288 characters of JSON");
            assertThat(McpFixture.JSON.writeValueAsString(flood.get("details")).length()).isLessThanOrEqualTo(512 * 1024);
            JsonNode row = host.call("audit.query", "{\"sessionId\":\"" + session + "\",\"toolName\":\"mcp_test_flood\"}")
                    .get("rows").get(0);
            assertThat(row.get("ok").asBoolean()).isTrue();

            List<String> cut = names(mcp.awaitState(longId, "ready").get("tools"));
            assertThat(cut).hasSizeGreaterThan(10).allSatisfy(n -> {
                assertThat(n).hasSize(64).matches("[A-Za-z0-9_]+");
                assertThat(n).startsWith(("mcp_" + longId.replace('-', '_') + "_").substring(0, 55));
            });
            assertThat(cut).doesNotHaveDuplicates();
            String touch = ("mcp_" + longId.replace('-', '_') + "_touch").substring(0, 55) + "_"
                    + sha256(longId + "\0touch").substring(0, 8);
            assertThat(cut).contains(touch);
            mcp.activate(session, touch);
            assertThat(mcp.result(mcp.start(session, "l1", touch, "{\"name\":\"long\"}")).get("ok").asBoolean())
                    .isTrue();
            assertThat(markers.resolve("long")).exists();
        }
    }

    private static String sha256(String s) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /**
     * server-filesystem, the other real npm server: its read_text_file reads inside the folder it was given,
     * and its refusal of a path outside it is TOOL_FAILED with the server's own text; an entry's {@code cwd}
     * is the server's working directory.
     */
    @Test
    void theFilesystemServerReadsAndRefusesInItsOwnWords() throws Exception {
        Files.writeString(project.resolve("hello.txt"), "hello from the filesystem server\n");
        Path outside = Files.writeString(markers.resolve("outside.txt"), "not for it\n");
        ObjectNode filesystem = McpFixture.stdio("node", McpFixture.npm()
                .resolve("@modelcontextprotocol/server-filesystem/dist/index.js").toString(), project.toString());
        ObjectNode here = McpFixture.testServer(markers).put("cwd", markers.toString());
        McpFixture.configure(data, Map.of("filesystem", filesystem, "here", here));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            assertThat(names(mcp.awaitState("filesystem", "ready").get("tools"))).contains("mcp_filesystem_read_text_file");
            String session = mcp.session("{\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_filesystem_read_text_file");
            JsonNode read = mcp.result(mcp.start(session, "fs1", "mcp_filesystem_read_text_file",
                    "{\"path\":\"" + project.resolve("hello.txt") + "\"}"));
            assertThat(read.get("ok").asBoolean()).as(read.toString()).isTrue();
            assertThat(text(read)).isEqualTo("hello from the filesystem server\n");
            JsonNode refused = mcp.result(mcp.start(session, "fs2", "mcp_filesystem_read_text_file",
                    "{\"path\":\"" + outside + "\"}"));
            assertThat(refused.get("errorCode").asText()).isEqualTo("TOOL_FAILED");
            assertThat(text(refused)).contains("Access denied - path outside allowed directories");

            mcp.awaitState("here", "ready");
            mcp.activate(session, "mcp_here_env");
            JsonNode env = McpFixture.JSON.readTree(text(mcp.result(mcp.start(session, "fs3", "mcp_here_env", "{}"))));
            assertThat(env.get("cwd").asText()).isEqualTo(markers.toRealPath().toString());
        }
    }

    /** Pins repository-started servers: a cloned project's .mcp.json must never run its command. */
    @Test
    void aProjectsMcpJsonIsNeverStarted() throws Exception {
        Path planted = project.resolve("planted");
        String evil = "{\"mcpServers\":{\"evil\":{\"command\":\"touch\",\"args\":[\"" + planted + "\"]}}}";
        Files.writeString(project.resolve(".mcp.json"), evil);
        Files.createDirectories(project.resolve(".pi"));
        Files.writeString(project.resolve(".pi").resolve("mcp.json"), evil);
        McpFixture.configure(data, Map.of("test", McpFixture.testServer(markers)));
        try (HostProcess host = HostProcess.serve(data)) {
            McpFixture mcp = new McpFixture(host);
            mcp.awaitState("test", "ready");
            String session = mcp.session("{\"projectRoot\":\"" + project + "\",\"permissionMode\":\"auto\"}");
            mcp.activate(session, "mcp_test_touch");
            // a call of the session runs (the project is in use) while only the user's mcp.json is started
            assertThat(mcp.result(mcp.start(session, "p1", "mcp_test_touch", "{\"name\":\"used\"}")).get("ok")
                    .asBoolean()).isTrue();
            assertThat(names(host.call("mcp.list", "{}").get("servers").findValues("id").stream()
                    .collect(McpFixture.JSON::createArrayNode, (a, n) -> a.add(n), (a, b) -> a.addAll(b))))
                    .containsExactly("test");
            host.closeInput();
            host.awaitExit(java.time.Duration.ofSeconds(30));
        }
        assertThat(planted).doesNotExist();
    }
}
