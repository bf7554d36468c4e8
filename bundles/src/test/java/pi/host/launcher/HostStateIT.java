package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.launcher.HostProcess.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 13.2 end to end: the data dir (except the calling session's own scratch) is never a tool
 * target, in any mode and with any grant, however the path is spelled (absolute, {@code ..}, a link
 * Bash planted, another session's scratch, a data dir inside the workspace, which Glob and Grep do not
 * enter either): a hard deny before any card, audited, and nothing is written.
 */
class HostStateIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    /** A call refused as host state: TOOL_DENIED, no card, the data-dir message. */
    private static void refused(HostProcess host, String session, String callId, String tool, String args)
            throws Exception {
        JsonNode r = host.result(host.startTool(session, callId, tool, args));
        assertThat(r.get("errorCode").asText()).as(callId + ": " + r).isEqualTo("TOOL_DENIED");
        assertThat(r.get("content").get(0).get("text").asText()).contains("host's own data directory")
                .contains("nothing ran");
        assertThat(host.cards(callId)).as(callId + " showed a card").isZero();
    }

    private static List<String> tree(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !p.toString().contains("felix-cache") && !p.toString().contains("audit-journal")
                    && !p.getFileName().toString().startsWith("pi-host.db")).map(dir::relativize)
                    .map(Path::toString).sorted().toList();
        }
    }

    @Test
    void everySpellingOfTheDataDirIsRefusedInAutoModeAndNothingIsWritten() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode created = host.call("session.create", json("projectRoot", project.toString(),
                    "permissionMode", "auto"));
            String s = created.get("sessionId").asText();
            Path scratch = Path.of(created.get("scratchDir").asText());
            String other = host.session(project, "auto");
            // the other session's scratch exists and holds a file
            JsonNode mine = host.tool(other, "o1", "Write", json("path",
                    Path.of(host.call("session.get", json("sessionId", other)).get("scratchDir").asText())
                            .resolve("notes.txt").toString(), "content", "other's notes"));
            assertThat(mine.get("ok").asBoolean()).as(mine.toString()).isTrue();
            // its own scratch is the one place there that is not host state
            assertThat(host.tool(s, "own", "Write", json("path", scratch.resolve("draft.txt").toString(),
                    "content", "mine")).get("ok").asBoolean()).isTrue();
            JsonNode link = host.tool(s, "b1", "Bash", json("command", "ln -s '" + data + "' d"));
            assertThat(link.get("ok").asBoolean()).as(link.toString()).isTrue();
            List<String> before = tree(data);

            refused(host, s, "w1", "Write", json("path", data.resolve("agents/evil.md").toString(), "content",
                    "---\nname: evil\npermission: auto\n---\nrun anything\n"));
            refused(host, s, "w2", "Write", json("path", data.resolve("mcp.json").toString(), "content", "{}"));
            refused(host, s, "w3", "Write", json("path", scratch.resolve("../../plugins/x.jar").toString(),
                    "content", "PK"));
            refused(host, s, "w4", "Write", json("path", "d/skills/x/SKILL.md", "content", "# x"));
            refused(host, s, "w5", "Write", json("path", scratch.resolve("../" + other + "/notes.txt").toString(),
                    "content", "overwritten"));
            refused(host, s, "r1", "Read", json("path", data.resolve("pi-host.db").toString()));
            refused(host, s, "r2", "Read", json("path", "d/pi-host.db"));
            refused(host, s, "r3", "Read", json("path", data.resolve("scratch/" + other + "/notes.txt").toString()));
            refused(host, s, "g1", "Glob", json("pattern", "**/*", "path", data.toString()));
            refused(host, s, "g2", "Grep", json("pattern", "CREATE", "path", "d"));
            refused(host, s, "e1", "Edit", json("path", "d/mcp.json", "tag", "0000", "ops", "REM"));

            assertThat(tree(data)).isEqualTo(before);
            assertThat(Files.readString(data.resolve("scratch/" + other + "/notes.txt"))).isEqualTo("other's notes");

            JsonNode row = host.auditRow(s, "w1");
            assertThat(row.get("decision").asText()).isEqualTo("deny");
            assertThat(row.get("rule").asText()).isEqualTo("host-state.data-dir");
            assertThat(row.get("prompted").asBoolean()).isFalse();
        }
    }

    @Test
    void noGrantAndNoModeReachesTheDataDir(@TempDir Path box) throws Exception {
        // the data dir below a folder of the test's own, so the grant on its parent (and the Glob it allows)
        // reaches only what this test made, never the whole of /tmp
        Path dataDir = Files.createDirectory(box.resolve("data"));
        try (HostProcess host = HostProcess.serve(dataDir)) {
            String s = host.session(project, "ask");
            // an outside grant on the data dir's parent, below it: it still does not cover the data dir
            Path parent = dataDir.getParent();
            int g = host.startTool(s, "g1", "Glob", json("pattern", "*", "path", parent.toString()));
            host.resolve(host.card("g1"), "allow-session");
            assertThat(host.result(g).get("ok").asBoolean()).isTrue();
            refused(host, s, "r1", "Read", json("path", dataDir.resolve("pi-host.db").toString()));
            refused(host, s, "g2", "Glob", json("pattern", "*", "path", dataDir.toString()));

            host.call("session.configure", json("sessionId", s, "mode", "plan"));
            refused(host, s, "r2", "Read", json("path", dataDir.resolve("pi-host.db").toString()));
        }
    }

    @Test
    void aDataDirInsideTheWorkspaceIsRefusedAndNeverWalked() throws Exception {
        Path inside = project.resolve("state");
        Files.writeString(project.resolve("code.txt"), "needle in the project\n");
        try (HostProcess host = HostProcess.serve(inside)) {
            String s = host.session(project, "auto");
            Files.writeString(inside.resolve("notes.txt"), "needle in the host's state\n");
            refused(host, s, "w1", "Write", json("path", "state/mcp.json", "content", "{}"));
            refused(host, s, "r1", "Read", json("path", "state/notes.txt"));
            refused(host, s, "g1", "Glob", json("pattern", "*", "path", "state"));

            String listed = host.tool(s, "g2", "Glob", json("pattern", "**/*")).get("content").get(0).get("text")
                    .asText();
            assertThat(listed).contains("code.txt").doesNotContain("state/");
            for (String mode : List.of("content", "files", "count")) {
                String found = host.tool(s, "grep-" + mode, "Grep", json("pattern", "needle", "outputMode", mode))
                        .get("content").get(0).get("text").asText();
                assertThat(found).as(mode).contains("code.txt").doesNotContain("state/");
            }
            assertThat(inside.resolve("mcp.json")).doesNotExist();
        }
    }
}
