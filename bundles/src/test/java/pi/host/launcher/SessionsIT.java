package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions, settings, batches and storage failures through the real process: what a client sees
 * when it drives the host over stdio.
 */
class SessionsIT {

    private static final Duration EXIT = Duration.ofSeconds(30);

    @TempDir
    Path data;
    @TempDir
    Path project;

    private static JsonNode ok(JsonNode answer) {
        assertThat(answer.has("error")).as(answer.toString()).isFalse();
        return answer.get("result");
    }

    @Test
    void aTemporarySessionWorksInItsScratchDirWhichGoesWithTheSession() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode s = ok(host.request(1, "session.create", "{\"permissionMode\":\"accept-edits\"}"));
            String id = s.get("sessionId").asText();
            assertThat(s.get("temporary").asBoolean()).isTrue();
            assertThat(s.get("workspaceRoot").asText()).isEqualTo(s.get("scratchDir").asText());
            Path scratch = Path.of(s.get("scratchDir").asText());
            assertThat(scratch).doesNotExist(); // created lazily

            JsonNode write = ok(host.request(2, "tools.execute", "{\"sessionId\":\"" + id + "\",\"turnId\":\"t\","
                    + "\"toolCallId\":\"w\",\"name\":\"Write\",\"arguments\":{\"path\":\"draft.txt\",\"content\":\"d\"}}"));
            assertThat(write.get("ok").asBoolean()).as(write.toString()).isTrue();
            assertThat(scratch.resolve("draft.txt")).hasContent("d");

            ok(host.request(3, "session.delete", "{\"sessionId\":\"" + id + "\"}"));
            assertThat(scratch).doesNotExist();
            JsonNode gone = host.request(4, "session.get", "{\"sessionId\":\"" + id + "\"}");
            assertThat(gone.get("error").get("data").get("errorCode").asText()).isEqualTo("SESSION_NOT_FOUND");
            JsonNode call = ok(host.request(5, "tools.execute", "{\"sessionId\":\"" + id + "\",\"turnId\":\"t\","
                    + "\"toolCallId\":\"r\",\"name\":\"Read\",\"arguments\":{\"path\":\"draft.txt\"}}"));
            assertThat(call.get("errorCode").asText()).isEqualTo("SESSION_NOT_FOUND");
        }
    }

    @Test
    void settingsAreValidatedPersistedAndSecretsNeverEchoed() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode bad = host.request(1, "settings.update", "{\"defaultPermissionMode\":\"yolo\",\"jev.apiKey\":\"k\"}");
            assertThat(bad.get("error").get("code").asInt()).isEqualTo(-32602);
            JsonNode shell = host.request(2, "settings.update", "{\"defaultCommandShell\":\"/bin/sh\"}");
            assertThat(shell.get("error").get("data").get("errorCode").asText()).isEqualTo("COMMAND_SHELL_INVALID");
            assertThat(ok(host.request(3, "settings.get", "{}")).get("jev.apiKeySaved").asBoolean())
                    .as("nothing of the refused update was written").isFalse();

            JsonNode updated = ok(host.request(4, "settings.update",
                    "{\"defaultPermissionMode\":\"auto\",\"jev.apiKey\":\"sk-secret-value\"}"));
            assertThat(updated.toString()).doesNotContain("sk-secret-value");
            assertThat(updated.get("jev.apiKeySaved").asBoolean()).isTrue();
            JsonNode s = ok(host.request(5, "session.create", "{\"projectRoot\":\"" + project + "\"}"));
            assertThat(s.get("permissionMode").asText()).isEqualTo("inherit");
            assertThat(s.get("effectivePermissionMode").asText()).isEqualTo("auto");
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
        }
        try (HostProcess host = HostProcess.serve(data)) {
            assertThat(ok(host.request(1, "settings.get", "{}")).get("defaultPermissionMode").asText())
                    .isEqualTo("auto");
        }
    }

    @Test
    void aParallelBatchAnswersInSourceOrder() throws Exception {
        for (int i = 0; i < 5; i++) {
            Files.writeString(project.resolve("f" + i + ".txt"), "file " + i + "\n");
        }
        try (HostProcess host = HostProcess.serve(data)) {
            String id = ok(host.request(1, "session.create", "{\"projectRoot\":\"" + project + "\"}"))
                    .get("sessionId").asText();
            StringBuilder calls = new StringBuilder();
            for (int i = 0; i < 5; i++) {
                calls.append(i == 0 ? "" : ",").append("{\"toolCallId\":\"b").append(i)
                        .append("\",\"name\":\"Read\",\"arguments\":{\"path\":\"f").append(i).append(".txt\"}}");
            }
            calls.append(",{\"toolCallId\":\"bx\",\"name\":\"Read\",\"arguments\":{\"path\":\"missing.txt\"}}");
            JsonNode results = ok(host.request(2, "tools.executeBatch", "{\"sessionId\":\"" + id
                    + "\",\"turnId\":\"t\",\"calls\":[" + calls + "]}")).get("results");
            assertThat(results).hasSize(6);
            for (int i = 0; i < 5; i++) {
                assertThat(results.get(i).get("content").get(0).get("text").asText()).contains("file " + i);
            }
            assertThat(results.get(5).get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
        }
    }

    @Test
    void aBrokenDatabaseFailsEveryCallWithStorageErrorAndRunsNothing() throws Exception {
        Files.createDirectories(data);
        Files.writeString(data.resolve("pi-host.db"), "not a database ".repeat(200));
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode info = ok(host.request(1, "host.info", "{}"));
            assertThat(info.get("schemaVersion").asInt()).isEqualTo(-1);
            JsonNode create = host.request(2, "session.create", "{\"projectRoot\":\"" + project + "\"}");
            assertThat(create.get("error").get("data").get("errorCode").asText()).isEqualTo("STORAGE_ERROR");
            JsonNode call = ok(host.request(3, "tools.execute", "{\"sessionId\":\"s_x\",\"turnId\":\"t\","
                    + "\"toolCallId\":\"c\",\"name\":\"Write\",\"arguments\":{\"path\":\"x\",\"content\":\"x\"}}"));
            assertThat(call.get("errorCode").asText()).isEqualTo("STORAGE_ERROR");
            assertThat(project.resolve("x")).doesNotExist();
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
        }
    }

    @Test
    void invalidArgumentsAreRefusedBeforeAnyCardAndWriteNothing() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String id = ok(host.request(1, "session.create", "{\"projectRoot\":\"" + project + "\"}"))
                    .get("sessionId").asText();
            String[] bad = {
                "{\"content\":\"x\"}",                                   // neither path nor file_path
                "{\"path\":\"a.txt\",\"content\":1}",                    // wrong type
                "{\"path\":\"a.txt\",\"content\":\"x\",\"mode\":\"0777\"}", // unknown property of a builtin
                "{\"path\":\"a\\u0000b\",\"content\":\"x\"}",             // NUL byte
                "{\"path\":\"" + "n".repeat(300) + "\",\"content\":\"x\"}" // over-long name
            };
            int n = 10;
            for (String args : bad) {
                JsonNode r = ok(host.request(n++, "tools.execute", "{\"sessionId\":\"" + id + "\",\"turnId\":\"t\","
                        + "\"toolCallId\":\"i" + n + "\",\"name\":\"Write\",\"arguments\":" + args + "}"));
                assertThat(r.get("errorCode").asText()).as(args).isEqualTo("INVALID_ARGUMENT");
            }
            assertThat(host.messages()).noneMatch(m -> "permission.request".equals(m.path("method").asText()));
            try (var files = Files.list(project)) {
                assertThat(files).isEmpty();
            }
        }
    }

    @Test
    void aNewDataDirIsCreatedOwnerOnly() throws Exception {
        Path fresh = data.resolve("fresh").resolve("pi-host");
        try (HostProcess host = HostProcess.serve(fresh)) {
            ok(host.request(1, "host.info", "{}"));
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)))
                    .isEqualTo("rwx------");
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
        }
    }
}
