package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read → Edit with the tag → the review record on the result → review.rollback, through the real
 * {@code pi-host serve --stdio} process (session in auto mode, so no cards).
 */
class FileToolsIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    @Test
    void theLoopGuardCountsPerDelegateRunAndPerTurn() throws Exception {
        Files.writeString(project.resolve("g.txt"), "a\n");
        // a delegate's calls run only inside the tools of its definition (spec §10.2)
        Files.writeString(Files.createDirectories(data.resolve("agents")).resolve("fixer.md"),
                "---\nname: fixer\ndescription: fixes\ntools: [Read, Edit]\n---\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            String delegate = ",\"delegate\":{\"name\":\"fixer\",\"source\":\"user\",\"permission\":\"inherit\","
                    + "\"delegationId\":\"d1\"}";
            String bad = "\"arguments\":{\"path\":\"g.txt\",\"tag\":\"0000\",\"ops\":\"nonsense\"}";
            JsonNode last = null;
            for (int i = 1; i <= 3; i++) {
                last = host.call("tools.execute", "{\"sessionId\":\"" + session + "\",\"turnId\":\"t1\","
                        + "\"toolCallId\":\"d" + i + "\",\"name\":\"Edit\"," + bad + delegate + "}");
                assertThat(last.get("errorCode").asText()).isEqualTo(i < 3 ? "EDIT_PARSE_FAILED" : "EDIT_RETRY_LIMIT");
            }
            assertThat(last.get("terminate").asBoolean()).isTrue();
            // the parent's turn has its own count
            JsonNode parent = host.call("tools.execute", "{\"sessionId\":\"" + session + "\",\"turnId\":\"t1\","
                    + "\"toolCallId\":\"p1\",\"name\":\"Edit\"," + bad + "}");
            assertThat(parent.get("errorCode").asText()).isEqualTo("EDIT_PARSE_FAILED");
            assertThat(parent.get("terminate").asBoolean()).isFalse();
            assertThat(Files.readString(project.resolve("g.txt"))).isEqualTo("a\n");
        }
    }

    @Test
    void readEditReviewRollback() throws Exception {
        Path file = Files.writeString(project.resolve("hello.txt"), "one\ntwo\nthree\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();

            JsonNode read = host.tool(session, "c1", "Read", "{\"path\":\"hello.txt\"}");
            String text = read.get("content").get(0).get("text").asText();
            assertThat(text).startsWith("[hello.txt#");
            String tag = text.substring(text.indexOf('#') + 1, text.indexOf(']'));

            JsonNode edit = host.tool(session, "c2", "Edit", "{\"file_path\":\"hello.txt\",\"tag\":\"" + tag
                    + "\",\"ops\":\"PUT 2.=2:\\n+TWO\\n\"}");
            assertThat(edit.get("ok").asBoolean()).as(edit.toString()).isTrue();
            assertThat(edit.get("root").asText()).isEqualTo("workspace");
            assertThat(Files.readString(file)).isEqualTo("one\nTWO\nthree\n");
            JsonNode review = edit.get("review");
            assertThat(review).hasSize(1);
            JsonNode rec = review.get(0);
            assertThat(rec.get("version").asInt()).isEqualTo(1);
            assertThat(rec.get("messageId").asText()).isEqualTo("m1");
            assertThat(rec.get("path").asText()).isEqualTo("hello.txt");
            assertThat(rec.get("operation").asText()).isEqualTo("edit");
            assertThat(rec.get("status").asText()).isEqualTo("modified");
            assertThat(rec.get("additions").asInt()).isEqualTo(1);
            assertThat(rec.get("deletions").asInt()).isEqualTo(1);
            assertThat(rec.get("reversible").asBoolean()).isTrue();
            assertThat(rec.get("hunks").get(0).get("lines").toString()).contains("-two").contains("+TWO");
            String snapshot = rec.get("snapshotId").asText();

            // a stale tag: nothing written, no review record
            JsonNode stale = host.tool(session, "c3", "Edit", "{\"path\":\"hello.txt\",\"tag\":\"" + tag
                    + "\",\"ops\":\"DEL 1.=1\"}");
            assertThat(stale.get("errorCode").asText()).isEqualTo("EDIT_TAG_MISMATCH");
            assertThat(stale.get("review")).isEmpty();

            JsonNode back = host.call("review.rollback", "{\"sessionId\":\"" + session + "\",\"snapshotId\":\""
                    + snapshot + "\"}");
            assertThat(back.get("status").asText()).isEqualTo("rolledBack");
            assertThat(Files.readString(file)).isEqualTo("one\ntwo\nthree\n");

            // the rollback dropped provenance: the edit's tag no longer works without a fresh Read
            JsonNode after = host.tool(session, "c4", "Edit", "{\"path\":\"hello.txt\",\"tag\":\"" + tag
                    + "\",\"ops\":\"DEL 1.=1\"}");
            assertThat(after.get("errorCode").asText()).isEqualTo("EDIT_TAG_MISMATCH");

            // a later change makes a rollback a conflict that touches nothing
            JsonNode write = host.tool(session, "c5", "Write", "{\"path\":\"hello.txt\",\"content\":\"w\\n\"}");
            String writeSnap = write.get("review").get(0).get("snapshotId").asText();
            Files.writeString(file, "someone else\n");
            JsonNode conflict = host.request(77, "review.rollback", "{\"sessionId\":\""
                    + session + "\",\"snapshotId\":\"" + writeSnap + "\"}");
            assertThat(conflict.get("error").get("code").asInt()).isEqualTo(-32602);
            assertThat(conflict.get("error").get("data").get("errorCode").asText()).isEqualTo("ROLLBACK_CONFLICT");
            assertThat(Files.readString(file)).isEqualTo("someone else\n");

            // snapshots go with the session
            assertThat(data.resolve("snapshots").resolve(session)).isDirectory();
            host.call("session.delete", "{\"sessionId\":\"" + session + "\"}");
            assertThat(data.resolve("snapshots").resolve(session)).doesNotExist();
        }
    }
}
