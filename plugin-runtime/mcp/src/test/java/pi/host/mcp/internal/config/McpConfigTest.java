package pi.host.mcp.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mcp.json in the format other MCP clients write; each bad entry has its own reason and stops nothing else. */
class McpConfigTest {

    private static final Path HOME = Path.of("/home/user");

    @TempDir
    Path dir;

    @Test
    void stdioAndHttpEntries() {
        McpConfig.Parsed p = McpConfig.parse("""
                {"mcpServers": {
                  "fs": {"command": "npx", "args": ["-y", "server"], "env": {"A": "1"}, "cwd": "~/work", "timeoutMs": 5000},
                  "web": {"url": "https://example.test/mcp", "headers": {"Authorization": "Bearer t"}, "type": "http"},
                  "off": {"command": "x", "disabled": true}
                }}""", HOME);
        assertThat(p.readable()).isTrue();
        assertThat(p.problems()).isEmpty();
        assertThat(p.servers()).extracting(ServerSpec::id).containsExactly("fs", "off", "web");
        ServerSpec fs = p.servers().get(0);
        assertThat(fs.transport()).isEqualTo(ServerSpec.Transport.STDIO);
        assertThat(fs.args()).containsExactly("-y", "server");
        assertThat(fs.env()).containsEntry("A", "1");
        assertThat(fs.cwd()).isEqualTo(Path.of("/home/user/work"));
        assertThat(fs.timeoutMs()).isEqualTo(5000);
        assertThat(p.servers().get(1).disabled()).isTrue();
        assertThat(p.servers().get(1).cwd()).as("default cwd").isEqualTo(HOME);
        assertThat(p.servers().get(1).timeoutMs()).isEqualTo(ServerSpec.DEFAULT_TIMEOUT_MS);
        ServerSpec web = p.servers().get(2);
        assertThat(web.transport()).isEqualTo(ServerSpec.Transport.HTTP);
        assertThat(web.headers()).containsEntry("Authorization", "Bearer t");
    }

    @Test
    void eachBadEntryIsAProblemOfItsOwn() {
        McpConfig.Parsed p = McpConfig.parse("""
                {"mcpServers": {
                  "ok": {"command": "node"},
                  "both": {"command": "node", "url": "http://x"},
                  "neither": {"args": []},
                  "number": {"command": 42},
                  "args": {"command": "node", "args": "not a list"},
                  "env": {"command": "node", "env": {"A": 1}},
                  "cwd": {"command": "node", "cwd": "relative/dir"},
                  "timeout": {"command": "node", "timeoutMs": 0},
                  "sse": {"url": "http://x", "type": "sse"},
                  "ftp": {"url": "ftp://x/y"},
                  "flag": {"command": "node", "disabled": "yes"},
                  "notobject": "node"
                }}""", HOME);
        assertThat(p.readable()).isTrue();
        assertThat(p.servers()).extracting(ServerSpec::id).containsExactly("ok");
        assertThat(p.problems()).extracting(McpConfig.Problem::id).containsExactly("args", "both", "cwd", "env", "flag",
                "ftp", "neither", "notobject", "number", "sse", "timeout");
        assertThat(problem(p, "both")).contains("exactly one of");
        assertThat(problem(p, "number")).isEqualTo("\"command\" must be a string");
        assertThat(problem(p, "args")).contains("\"args\" must be an array of strings");
        assertThat(problem(p, "env")).contains("\"env\".A must be a string");
        assertThat(problem(p, "cwd")).contains("absolute path");
        assertThat(problem(p, "timeout")).contains("\"timeoutMs\"");
        assertThat(problem(p, "sse")).contains("SSE");
        assertThat(problem(p, "ftp")).contains("http or https");
        assertThat(problem(p, "flag")).contains("true or false");
    }

    @Test
    void aBrokenFileIsReportedAsTheFilesProblem() {
        for (String text : new String[] {"{\"mcpServers\": {", "[1]", "{\"mcpServers\": []}",
                "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"a\": {\"command\": \"y\"}}}"}) {
            McpConfig.Parsed p = McpConfig.parse(text, HOME);
            assertThat(p.readable()).as(text).isFalse();
            assertThat(p.servers()).isEmpty();
            assertThat(p.problems()).singleElement().satisfies(pr -> assertThat(pr.id()).isNull());
        }
    }

    @Test
    void aMissingOrEmptyFileConfiguresNothing() throws Exception {
        assertThat(McpConfig.read(dir.resolve("mcp.json"), HOME)).satisfies(p -> {
            assertThat(p.readable()).isTrue();
            assertThat(p.servers()).isEmpty();
        });
        Files.writeString(dir.resolve("mcp.json"), "  ");
        assertThat(McpConfig.read(dir.resolve("mcp.json"), HOME).servers()).isEmpty();
        Files.writeString(dir.resolve("big.json"), "x".repeat((int) McpConfig.MAX_BYTES + 1));
        assertThat(McpConfig.read(dir.resolve("big.json"), HOME).problems().get(0).message()).contains("larger than");
    }

    @Test
    void idsAreBounded() {
        McpConfig.Parsed p = McpConfig.parse("{\"mcpServers\": {\"" + "x".repeat(65) + "\": {\"command\": \"n\"},"
                + " \"a\\u0007b\": {\"command\": \"n\"}}}", HOME);
        assertThat(p.servers()).isEmpty();
        assertThat(p.problems()).hasSize(2).allSatisfy(pr -> assertThat(pr.message()).contains("server id"));
    }

    private static String problem(McpConfig.Parsed p, String id) {
        return p.problems().stream().filter(x -> id.equals(x.id())).findFirst().orElseThrow().message();
    }
}
