package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.jev.testkit.ProviderStub;

/**
 * JevClassify through the real {@code pi-host serve --stdio} process and its one pipeline, against a
 * loopback stub of the provider's HTTP API: the key saved through {@code settings.update} reaches the
 * provider in the Authorization header and nowhere else (not the database, an audit row, a result, the
 * host's log); an oversized request sends nothing; {@code tools.abort} cancels the provider's request.
 */
class JevClassifyIT {

    private static final String KEY = "ts-live-9f8e7d6c5b4a39281706";
    private static final String ANSWER = "{\"model\":\"jev-1.13.0\",\"answers\":{\"urgent\":{\"type\":\"noul\","
            + "\"noul\":0.81}},\"usage\":{\"input_tokens\":21,\"output_tokens\":3}}";
    private static final String QUESTIONS = "[{\"id\":\"urgent\",\"text\":\"Is this urgent?\",\"type\":\"boolean\"}]";

    @TempDir
    Path data;
    @TempDir
    Path project;

    /** A session in Agent with Jev enabled, the key saved and the endpoint on {@code stub}; JevClassify active. */
    private static String ready(HostProcess host, Path project, ProviderStub stub) throws Exception {
        host.call("settings.update", "{\"jev.enabled\":true,\"jev.apiKey\":\"" + KEY + "\",\"jev.endpoint\":\""
                + stub.endpoint() + "\"}");
        String session = host.session(project, "ask");
        JsonNode found = host.tool(session, "search", "ToolSearch", "{\"query\":\"JevClassify\"}");
        assertThat(found.get("details").get("addedToolNames").toString()).isEqualTo("[\"JevClassify\"]");
        return session;
    }

    private static String everythingTheHostWrote(HostProcess host) {
        StringBuilder all = new StringBuilder(host.stderr());
        host.messages().forEach(m -> all.append(m).append('\n'));
        return all.toString();
    }

    /** Pins the key's way out end to end: the Authorization header only, whatever the call's arguments carry. */
    @Test
    void theKeyReachesTheProviderInItsHeaderAndNowhereElse() throws Exception {
        try (ProviderStub stub = ProviderStub.start(ProviderStub.reply(200, ANSWER));
                HostProcess host = HostProcess.serve(data)) {
            String session = ready(host, project, stub);
            // the model quotes the key in its state (it could have read it with an approved command)
            JsonNode leak = host.tool(session, "c0", "JevClassify", "{\"state\":{\"ticket\":\"payouts fail\","
                    + "\"leak\":\"" + KEY + "\"},\"questions\":" + QUESTIONS + "}");
            assertThat(leak.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            assertThat(leak.toString()).doesNotContain(KEY).contains("contain the saved TypeSafe API key");
            assertThat(stub.requests()).as("nothing was sent").isEmpty();
            assertThat(host.auditRow(session, "c0").toString()).doesNotContain(KEY).contains("payouts fail");

            JsonNode r = host.okWithoutCard(session, "c1", "JevClassify", "{\"state\":{\"ticket\":\"payouts fail\"},"
                    + "\"questions\":" + QUESTIONS + "}");
            assertThat(r.get("details").get("answers").toString())
                    .isEqualTo("[{\"id\":\"urgent\",\"type\":\"boolean\",\"value\":true,\"probability\":0.81}]");
            assertThat(r.get("details").get("usage").toString()).isEqualTo("{\"inputTokens\":21,\"outputTokens\":3}");
            assertThat(r.get("content").get(0).get("text").asText()).isEqualTo("urgent: true (p=0.81)");

            List<ProviderStub.Received> sent = stub.requests();
            assertThat(sent).hasSize(1);
            assertThat(sent.get(0).headers()).containsEntry("authorization", "Bearer " + KEY);
            assertThat(sent.get(0).bodyText()).doesNotContain(KEY).contains("payouts fail");
            JsonNode audit = host.auditRow(session, "c1");
            assertThat(audit.get("decision").asText()).isEqualTo("allow");
            assertThat(audit.toString()).doesNotContain(KEY).contains("payouts fail");
            assertThat(host.call("settings.get", "{}").toString()).doesNotContain(KEY);
            host.closeInput();
            host.awaitExit(java.time.Duration.ofSeconds(30));
            assertThat(everythingTheHostWrote(host)).doesNotContain(KEY);
        }
        for (Path f : List.of(data.resolve("pi-host.db"), data.resolve("pi-host.db-wal"))) {
            if (Files.exists(f)) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(f.toString())
                        .doesNotContain(KEY);
            }
        }
        try (var journals = Files.walk(data)) {
            for (Path f : (Iterable<Path>) journals.filter(Files::isRegularFile)::iterator) {
                if (!f.equals(data.resolve("secrets/jev.apiKey")) && Files.size(f) < 64 * 1024 * 1024) {
                    assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(f.toString())
                            .doesNotContain(KEY);
                }
            }
        }
    }

    /** Pins the file's mode for real: another user cannot read the key, though every folder above it is open. */
    @Test
    void anotherUserCannotReadTheSavedKey() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("settings.update", "{\"jev.apiKey\":\"" + KEY + "\"}");
        }
        Path file = data.resolve("secrets/jev.apiKey");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path readable = Files.writeString(data.resolve("readable.txt"), "open");
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r--r--"));
        NonRootUser other = NonRootUser.get();
        Path home = other.ownedFolder(project, "home");
        assertThat(run(other, home, "cat", readable.toString())).as("the harness reads what it may").isEqualTo("open");
        Files.setPosixFilePermissions(data.resolve("secrets"), PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(run(other, home, "cat", file.toString())).as("the file alone keeps it").isNull();
        Files.setPosixFilePermissions(data.resolve("secrets"), PosixFilePermissions.fromString("rwx------"));
        assertThat(run(other, home, "cat", file.toString())).isNull();
    }

    /** What {@code command} printed as the other user, or null when it failed. */
    private static String run(NonRootUser user, Path home, String... command) throws Exception {
        Process p = user.command(home, List.of(command)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor() == 0 ? out : null;
    }

    /** Pins the bound end to end: over 24 KiB is PAYLOAD_TOO_LARGE, audited, and the provider gets no request. */
    @Test
    void aRequestOverTwentyFourKibibytesIsRefusedAndNothingIsSent() throws Exception {
        try (ProviderStub stub = ProviderStub.start(ProviderStub.reply(200, ANSWER));
                HostProcess host = HostProcess.serve(data)) {
            String session = ready(host, project, stub);
            JsonNode r = host.tool(session, "big", "JevClassify", "{\"state\":{\"log\":\"" + "x".repeat(25 * 1024)
                    + "\"},\"questions\":" + QUESTIONS + "}");
            assertThat(r.get("errorCode").asText()).isEqualTo("PAYLOAD_TOO_LARGE");
            assertThat(r.get("details").get("maxBytes").asInt()).isEqualTo(24 * 1024);
            assertThat(host.auditRow(session, "big").get("errorCode").asText()).isEqualTo("PAYLOAD_TOO_LARGE");
            JsonNode bad = host.tool(session, "dup", "JevClassify", "{\"state\":{},\"questions\":[{\"id\":\"a\","
                    + "\"text\":\"?\",\"type\":\"enum\",\"options\":[\"x\"]}]}");
            assertThat(bad.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            assertThat(stub.awaitRequest(500)).isFalse();
            assertThat(stub.requests()).as("the provider got no request").isEmpty();
        }
    }

    /** Pins cancellation end to end: tools.abort ends the call and the provider sees its request's connection closed. */
    @Test
    void anAbortMidRequestCancelsTheProvidersRequest() throws Exception {
        try (ProviderStub stub = ProviderStub.start(ProviderStub.hold());
                HostProcess host = HostProcess.serve(data)) {
            String session = ready(host, project, stub);
            int id = host.startTool(session, "slow", "JevClassify", "{\"state\":{\"a\":1},\"questions\":" + QUESTIONS
                    + "}");
            assertThat(stub.awaitRequest(30_000)).isTrue();
            JsonNode aborted = host.call("tools.abort", "{\"sessionId\":\"" + session + "\",\"toolCallId\":\"slow\","
                    + "\"toolName\":\"JevClassify\"}");
            assertThat(aborted.get("aborted").asBoolean()).isTrue();
            assertThat(host.result(id).get("errorCode").asText()).isEqualTo("TOOL_ABORTED");
            assertThat(stub.awaitClientClosed(30_000)).as("the stub saw the connection closed").isTrue();
        }
    }

    @Test
    void aRefusedKeyIsATypedFailureThatNeverEchoesIt() throws Exception {
        try (ProviderStub stub = ProviderStub.start(ProviderStub.reply(401, "{\"error\":{\"message\":\"bad key "
                + KEY + "\"}}")); HostProcess host = HostProcess.serve(data)) {
            String session = ready(host, project, stub);
            JsonNode r = host.tool(session, "c", "JevClassify", "{\"state\":{},\"questions\":" + QUESTIONS + "}");
            assertThat(r.get("errorCode").asText()).isEqualTo("TOOL_FAILED");
            assertThat(r.get("details").get("providerError").asText()).isEqualTo("unauthorized");
            assertThat(r.get("details").get("status").asInt()).isEqualTo(401);
            assertThat(r.toString()).doesNotContain(KEY).contains("bad key [REDACTED]");
            assertThat(host.auditRow(session, "c").toString()).doesNotContain(KEY);
        }
    }
}
