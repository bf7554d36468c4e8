package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The issue's end-to-end walk through the real {@code pi-host serve --stdio} process: sessions, the
 * catalog, a low-risk call without a card, a denied high-risk call that writes nothing, allow-session
 * for one tool only, Plan's hard deny under auto, an outside path's own card, and the audit trail.
 */
class PipelineIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    @TempDir
    Path elsewhere;

    private final AtomicInteger ids = new AtomicInteger(100);

    private JsonNode call(HostProcess host, String method, String params) throws Exception {
        JsonNode answer = host.request(ids.incrementAndGet(), method, params);
        assertThat(answer.has("error")).as(method + " answered " + answer).isFalse();
        return answer.get("result");
    }

    /** Starts tools.execute without waiting; the answer is awaited with {@link HostProcess#response(int)}. */
    private int start(HostProcess host, String session, String callId, String tool, String args) throws Exception {
        int id = ids.incrementAndGet();
        host.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"" + callId + "\",\"name\":\"" + tool
                + "\",\"arguments\":" + args + "}}");
        return id;
    }

    private JsonNode permissionRequestFor(HostProcess host, String callId) {
        return host.awaitMessage(m -> "permission.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).get("params");
    }

    private long cardsFor(HostProcess host, String callId) {
        return host.messages().stream().filter(m -> "permission.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).count();
    }

    @Test
    void theWholeWalk() throws Exception {
        Files.writeString(project.resolve("hello.txt"), "one\ntwo\n");
        Path secret = Files.writeString(elsewhere.resolve("outside.txt"), "far away\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}")
                    .get("sessionId").asText();

            JsonNode list = call(host, "tools.list", "{\"sessionId\":\"" + session + "\"}");
            List<String> names = new ArrayList<>();
            list.get("tools").forEach(t -> names.add(t.get("name").asText()));
            assertThat(names).contains("Read", "Write", "new_context");
            assertThat(list.get("tools")).anySatisfy(t -> {
                assertThat(t.get("name").asText()).isEqualTo("Write");
                assertThat(t.get("risk").asText()).isEqualTo("high");
                assertThat(t.get("inputSchema").get("properties").has("content")).isTrue();
            });

            // a low-risk call runs without a card
            JsonNode read = host.response(start(host, session, "c1", "Read", "{\"path\":\"hello.txt\"}"))
                    .get("result");
            assertThat(read.get("ok").asBoolean()).isTrue();
            assertThat(read.get("content").get(0).get("text").asText()).startsWith("[hello.txt#").contains("1\tone");
            assertThat(cardsFor(host, "c1")).isZero();

            // a high-risk call under ask gets a card; denied, nothing ran
            int denied = start(host, session, "c2", "Write", "{\"path\":\"new.txt\",\"content\":\"x\"}");
            JsonNode card = permissionRequestFor(host, "c2");
            assertThat(card.get("toolName").asText()).isEqualTo("Write");
            assertThat(card.get("risk").asText()).isEqualTo("high");
            call(host, "permissions.resolve", "{\"requestId\":\"" + card.get("requestId").asText()
                    + "\",\"decision\":\"deny\"}");
            JsonNode deniedResult = host.response(denied).get("result");
            assertThat(deniedResult.get("ok").asBoolean()).isFalse();
            assertThat(deniedResult.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(deniedResult.get("content").get(0).get("text").asText()).contains("user denied permission");
            assertThat(project.resolve("new.txt")).doesNotExist();

            // allow-session: this card is approved, the next Write gets none
            int allowed = start(host, session, "c3", "Write", "{\"path\":\"new.txt\",\"content\":\"x\"}");
            card = permissionRequestFor(host, "c3");
            call(host, "permissions.resolve", "{\"requestId\":\"" + card.get("requestId").asText()
                    + "\",\"decision\":\"allow-session\"}");
            assertThat(host.response(allowed).get("result").get("ok").asBoolean()).isTrue();
            assertThat(project.resolve("new.txt")).hasContent("x");
            JsonNode again = host.response(start(host, session, "c4", "Write",
                    "{\"file_path\":\"new.txt\",\"content\":\"y\"}")).get("result");
            assertThat(again.get("ok").asBoolean()).isTrue();
            assertThat(cardsFor(host, "c4")).isZero();
            assertThat(project.resolve("new.txt")).hasContent("y");

            // ... for that tool only: an outside-path Read still needs its own card
            int outside = start(host, session, "c5", "Read", "{\"path\":\"" + secret + "\"}");
            card = permissionRequestFor(host, "c5");
            assertThat(card.get("externalPath").asText()).isEqualTo(secret.toRealPath().toString());
            call(host, "permissions.resolve", "{\"requestId\":\"" + card.get("requestId").asText()
                    + "\",\"decision\":\"allow-once\"}");
            JsonNode external = host.response(outside).get("result");
            assertThat(external.get("ok").asBoolean()).isTrue();
            assertThat(external.get("root").asText()).isEqualTo("external");
            assertThat(external.get("path").asText()).isEqualTo(secret.toRealPath().toString());

            // Plan hard-denies Write even under auto, before any card
            call(host, "session.configure", "{\"sessionId\":\"" + session
                    + "\",\"mode\":\"plan\",\"permissionMode\":\"auto\"}");
            JsonNode planned = host.response(start(host, session, "c6", "Write",
                    "{\"path\":\"plan.txt\",\"content\":\"no\"}")).get("result");
            assertThat(planned.get("errorCode").asText()).isEqualTo("MODE_DENIED");
            assertThat(cardsFor(host, "c6")).isZero();
            assertThat(project.resolve("plan.txt")).doesNotExist();

            // the audit trail holds every call with its decision
            JsonNode rows = call(host, "audit.query", "{\"sessionId\":\"" + session + "\"}").get("rows");
            assertThat(rows).hasSize(6);
            JsonNode r1 = rowFor(rows, "c1");
            assertThat(r1.get("decision").asText()).isEqualTo("allow");
            assertThat(r1.get("prompted").asBoolean()).isFalse();
            assertThat(r1.get("ok").asBoolean()).isTrue();
            JsonNode r2 = rowFor(rows, "c2");
            assertThat(r2.get("decision").asText()).isEqualTo("deny");
            assertThat(r2.get("source").asText()).isEqualTo("user");
            assertThat(r2.get("prompted").asBoolean()).isTrue();
            assertThat(r2.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(r2.get("durationMs").asDouble()).isZero();
            assertThat(rowFor(rows, "c3").get("source").asText()).isEqualTo("user:allow-session");
            assertThat(rowFor(rows, "c4").get("prompted").asBoolean()).isFalse();
            assertThat(rowFor(rows, "c5").get("externalPath").asText()).isEqualTo("allowed");
            JsonNode r6 = rowFor(rows, "c6");
            assertThat(r6.get("decision").asText()).isEqualTo("mode-deny");
            assertThat(r6.get("errorCode").asText()).isEqualTo("MODE_DENIED");
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }

    private static JsonNode rowFor(JsonNode rows, String callId) {
        for (JsonNode r : rows) {
            if (callId.equals(r.get("toolCallId").asText())) {
                return r;
            }
        }
        throw new AssertionError("no audit row for " + callId + " in " + rows);
    }

    /**
     * Pins the documented order of a call's two lines on stdout (docs/protocol.md): its
     * {@code tool.completed} comes before its answer, with no other call's completion or answer between
     * them, for a call that ran, one refused before it ran and one the tool failed.
     */
    @Test
    void everyCallsToolCompletedArrivesRightBeforeItsAnswer() throws Exception {
        Files.writeString(project.resolve("a.txt"), "a\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}")
                    .get("sessionId").asText();
            // one after the other: calls that run at once may interleave their lines
            int ran = start(host, session, "k1", "Read", "{\"path\":\"a.txt\"}");
            assertThat(host.response(ran).path("result").path("ok").asBoolean()).isTrue();
            int unknown = start(host, session, "k2", "NoSuchTool", "{}");
            assertThat(host.response(unknown).path("result").path("errorCode").asText()).isEqualTo("UNKNOWN_TOOL");
            int failed = start(host, session, "k3", "Read", "{\"path\":\"missing.txt\"}");
            assertThat(host.response(failed).path("result").path("ok").asBoolean()).isFalse();

            // the completions and answers, in the order they arrived
            List<JsonNode> lines = host.messages().stream()
                    .filter(m -> m.has("id") || "tool.completed".equals(m.path("method").asText())).toList();
            int[][] calls = {{ran, 1}, {unknown, 2}, {failed, 3}};
            for (int[] c : calls) {
                int at = -1;
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).path("id").asInt(-1) == c[0]) {
                        at = i;
                    }
                }
                assertThat(at).as("the answer of k" + c[1]).isPositive();
                JsonNode before = lines.get(at - 1);
                assertThat(before.path("method").asText()).isEqualTo("tool.completed");
                assertThat(before.path("params").path("toolCallId").asText()).isEqualTo("k" + c[1]);
                assertThat(before.path("params").path("ok").asBoolean())
                        .isEqualTo(lines.get(at).path("result").path("ok").asBoolean());
            }
        }
    }

    @Test
    void auditRowsOfCompletedCallsSurviveKillDashNine() throws Exception {
        Files.writeString(project.resolve("a.txt"), "a\n");
        String session;
        try (HostProcess host = HostProcess.serve(data)) {
            session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}").get("sessionId").asText();
            for (int i = 0; i < 20; i++) {
                JsonNode r = host.response(start(host, session, "k" + i, "Read", "{\"path\":\"a.txt\"}"));
                assertThat(r.get("result").get("ok").asBoolean()).isTrue();
            }
            host.process().destroyForcibly(); // SIGKILL: no shutdown hook, no clean close of SQLite
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isEqualTo(137);
        }
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode rows = call(host, "audit.query", "{\"sessionId\":\"" + session + "\",\"limit\":100}")
                    .get("rows");
            assertThat(rows).hasSize(20);
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }

    @Test
    void aCardWithNoDecisionEndsAsADenialWhenTheHostShutsDown() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}")
                    .get("sessionId").asText();
            int pending = start(host, session, "w1", "Write", "{\"path\":\"late.txt\",\"content\":\"x\"}");
            permissionRequestFor(host, "w1");
            host.closeInput(); // end of input: the host stops, the card is never answered
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
            JsonNode result = host.response(pending).get("result");
            assertThat(result.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(project.resolve("late.txt")).doesNotExist();
        }
    }

    @Test
    void abortCancelsAWaitingCard() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = call(host, "session.create", "{\"projectRoot\":\"" + project + "\"}")
                    .get("sessionId").asText();
            int pending = start(host, session, "w2", "Write", "{\"path\":\"never.txt\",\"content\":\"x\"}");
            permissionRequestFor(host, "w2");
            JsonNode aborted = call(host, "tools.abort", "{\"sessionId\":\"" + session
                    + "\",\"toolCallId\":\"w2\",\"toolName\":\"Write\"}");
            assertThat(aborted.get("aborted").asBoolean()).isTrue();
            assertThat(host.response(pending).get("result").get("errorCode").asText()).isEqualTo("TOOL_ABORTED");
            assertThat(project.resolve("never.txt")).doesNotExist();
            assertThat(call(host, "permissions.pending", "{}").get("requests")).isEmpty();
        }
    }
}
