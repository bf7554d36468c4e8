package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.launcher.HostProcess.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 13.6 end to end: Edit's MV destination is a declared path like the file itself, no longer
 * resolved inside the tool. An outside destination gets its own card, a repository control file as the
 * destination confirms under accept-edits, the data dir as the destination is refused before any card,
 * and the audit row lists both paths with what the call does to each.
 */
class DeclaredPathsIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    @TempDir
    Path elsewhere;

    private static String tag(HostProcess host, String s, String callId, String path) throws Exception {
        JsonNode read = host.tool(s, callId, "Read", json("path", path));
        assertThat(read.get("ok").asBoolean()).as(read.toString()).isTrue();
        return read.get("details").get("tag").asText();
    }

    @Test
    void anOutsideMoveDestinationGetsItsOwnCardAndTheAuditRowListsBothPaths() throws Exception {
        Files.writeString(project.resolve("a.txt"), "a\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "accept-edits");
            String tag = tag(host, s, "r1", "a.txt");
            Path dest = elsewhere.resolve("stolen.txt");
            int id = host.startTool(s, "e1", "Edit", json("path", "a.txt", "tag", tag, "ops", "MV " + dest));
            JsonNode card = host.card("e1");
            assertThat(card.get("externalPath").asText()).isEqualTo(elsewhere.toRealPath().resolve("stolen.txt")
                    .toString());
            assertThat(card.get("description").asText()).isEqualTo("Edit: move a.txt to " + dest);
            assertThat(card.get("grantScope").get("inRoots").asBoolean()).isTrue();
            host.resolve(card, "deny");
            assertThat(host.result(id).get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(dest).doesNotExist();
            assertThat(project.resolve("a.txt")).hasContent("a");

            JsonNode moved = host.tool(s, "e2", "Edit", json("path", "a.txt", "tag", tag, "ops", "MV sub/b.txt"));
            assertThat(moved.get("ok").asBoolean()).as(moved.toString()).isTrue();
            JsonNode row = null;
            for (JsonNode r : host.call("audit.query", json("sessionId", s)).get("rows")) {
                if ("e2".equals(r.get("toolCallId").asText())) {
                    row = r;
                }
            }
            assertThat(row).isNotNull();
            assertThat(row.get("paths").toString()).isEqualTo("[{\"path\":\"a.txt\",\"root\":\"workspace\","
                    + "\"access\":\"delete\"},{\"path\":\"sub/b.txt\",\"root\":\"workspace\",\"access\":\"create\"}]");
        }
    }

    @Test
    void aMoveIntoGitOrTheDataDirIsJudgedLikeAnyPath() throws Exception {
        Files.writeString(project.resolve("hook.sh"), "#!/bin/sh\ntouch /tmp/pwned\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "accept-edits");
            String tag = tag(host, s, "r1", "hook.sh");
            int id = host.startTool(s, "e1", "Edit", json("path", "hook.sh", "tag", tag, "ops",
                    "MV .git/hooks/post-checkout"));
            JsonNode card = host.card("e1");
            assertThat(card.get("reason").asText()).contains("repository control file");
            host.resolve(card, "deny");
            assertThat(host.result(id).get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(project.resolve(".git/hooks/post-checkout")).doesNotExist();

            JsonNode toData = host.tool(s, "e2", "Edit", json("path", "hook.sh", "tag", tag, "ops",
                    "MV " + data.resolve("plugins/evil.jar")));
            assertThat(toData.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(toData.get("content").get(0).get("text").asText()).contains("host's own data directory");
            assertThat(host.cards("e2")).isZero();
            assertThat(data.resolve("plugins/evil.jar")).doesNotExist();
            assertThat(project.resolve("hook.sh")).exists();
        }
    }
}
