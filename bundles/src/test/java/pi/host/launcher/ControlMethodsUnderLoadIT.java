package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 12.6 on the real process: with about a thousand calls waiting on cards, {@code
 * permissions.resolve} and {@code tools.abort} were refused as "too many requests in flight", and a
 * session could keep any number of cards waiting.
 */
class ControlMethodsUnderLoadIT {

    /** The host's in-flight bound per connection (HostRpcEndpoint.MAX_IN_FLIGHT). */
    private static final int IN_FLIGHT = 1024;
    /** The host's bound of waiting cards per session (PendingPerSession.MAX). */
    private static final int CARDS_PER_SESSION = 256;
    /** How long a control method may take to be answered while the host is saturated. */
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    @TempDir
    Path data;
    @TempDir
    Path project;

    private final AtomicInteger ids = new AtomicInteger(100);

    private int send(HostProcess host, String method, String params) throws Exception {
        int id = ids.incrementAndGet();
        host.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
        return id;
    }

    private int write(HostProcess host, String session, String callId) throws Exception {
        return send(host, "tools.execute", "{\"sessionId\":\"" + session + "\",\"turnId\":\"t1\",\"toolCallId\":\""
                + callId + "\",\"name\":\"Write\",\"arguments\":{\"path\":\"" + callId + ".txt\",\"content\":\"x\"}}");
    }

    private static JsonNode awaitMessage(HostProcess host, Duration bound, Predicate<JsonNode> test) {
        return await().pollDelay(Duration.ZERO).atMost(bound).until(() -> host.messages().stream().filter(test).findFirst(),
                Optional::isPresent).get();
    }

    private static JsonNode answer(HostProcess host, int id, Duration bound) {
        return awaitMessage(host, bound, m -> m.path("id").isInt() && m.path("id").asInt() == id);
    }

    private static long cards(HostProcess host) {
        return host.messages().stream().filter(m -> "permission.request".equals(m.path("method").asText())).count();
    }

    private static String cardFor(HostProcess host, String callId) {
        return awaitMessage(host, PROMPTLY, m -> "permission.request".equals(m.path("method").asText())
                && callId.equals(m.path("params").path("toolCallId").asText())).get("params").get("requestId").asText();
    }

    private String session(HostProcess host) throws Exception {
        return host.call("session.create", "{\"projectRoot\":\"" + project + "\"}").get("sessionId").asText();
    }

    @Test
    void controlMethodsAreAnsweredWhileAThousandCallsWaitOnCards() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            List<String> sessions = new ArrayList<>();
            for (int s = 0; s < IN_FLIGHT / CARDS_PER_SESSION; s++) {
                sessions.add(session(host));
            }
            List<Integer> calls = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                calls.add(write(host, sessions.get(i % sessions.size()), "w" + i));
            }
            await().atMost(Duration.ofSeconds(180)).until(() -> cards(host) == IN_FLIGHT);
            JsonNode busy = answer(host, send(host, "tools.list", "{\"sessionId\":\"" + sessions.get(0) + "\"}"),
                    PROMPTLY);
            assertThat(busy.get("error").get("message").asText()).as("the in-flight bound is taken")
                    .isEqualTo("too many requests in flight");

            JsonNode resolved = answer(host, send(host, "permissions.resolve", "{\"requestId\":\""
                    + cardFor(host, "w0") + "\",\"decision\":\"allow-once\"}"), PROMPTLY);
            assertThat(resolved.get("result")).as(resolved.toString()).isNotNull();
            assertThat(answer(host, calls.get(0), PROMPTLY).get("result").get("ok").asBoolean()).isTrue();
            assertThat(project.resolve("w0.txt")).hasContent("x");

            JsonNode aborted = answer(host, send(host, "tools.abort", "{\"sessionId\":\"" + sessions.get(1)
                    + "\",\"toolCallId\":\"w1\",\"toolName\":\"Write\"}"), PROMPTLY);
            assertThat(aborted.get("result").get("aborted").asBoolean()).as(aborted.toString()).isTrue();
            assertThat(answer(host, calls.get(1), PROMPTLY).get("result").get("errorCode").asText())
                    .isEqualTo("TOOL_ABORTED");
            assertThat(project.resolve("w1.txt")).doesNotExist();

            // the bound is taken again by two more waiting calls; the other control methods still answer
            write(host, sessions.get(0), "x0");
            write(host, sessions.get(1), "x1");
            await().atMost(PROMPTLY).until(() -> cards(host) == IN_FLIGHT + 2);
            JsonNode ask = answer(host, send(host, "asks.resolve", "{\"requestId\":\"ask_none\",\"answers\":[]}"),
                    PROMPTLY);
            assertThat(ask.get("error").get("code").asInt()).as(ask.toString()).isEqualTo(-32602);
            JsonNode plan = answer(host, send(host, "plans.resolve", "{\"approvalId\":\"none\",\"decision\":\"reject\"}"),
                    PROMPTLY);
            assertThat(plan.get("error").get("code").asInt()).as(plan.toString()).isEqualTo(-32602);

            JsonNode shutdown = answer(host, send(host, "host.shutdown", "{}"), PROMPTLY);
            assertThat(shutdown.get("result")).as(shutdown.toString()).isNotNull();
            assertThat(host.awaitExit(Duration.ofSeconds(60))).isZero();
            Map<Integer, JsonNode> answers = new HashMap<>();
            host.messages().stream().filter(m -> m.path("id").isInt()).forEach(m -> answers.put(m.get("id").asInt(), m));
            for (int i = 2; i < IN_FLIGHT; i++) {
                assertThat(answers.get(calls.get(i)).get("result").get("errorCode").asText())
                        .as("w" + i).isEqualTo("TOOL_DENIED");
            }
            for (int i = 1; i < IN_FLIGHT; i++) {
                assertThat(project.resolve("w" + i + ".txt")).doesNotExist();
            }
        }
    }

    @Test
    void aSessionsCardsAreBoundedAndTheCallOverTheBoundIsAnAuditedDenialThatRanNothing() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host);
            String other = session(host);
            for (int i = 0; i < CARDS_PER_SESSION; i++) {
                write(host, session, "w" + i);
            }
            await().atMost(Duration.ofSeconds(120)).until(() -> cards(host) == CARDS_PER_SESSION);

            JsonNode over = host.tool(session, "over", "Write", "{\"path\":\"over.txt\",\"content\":\"x\"}");
            assertThat(over.get("errorCode").asText()).isEqualTo("CARD_LIMIT");
            assertThat(over.get("content").get(0).get("text").asText()).isEqualTo("the session already has 256"
                    + " permission cards waiting for the user; no card was shown and nothing ran");
            assertThat(project.resolve("over.txt")).doesNotExist();
            assertThat(cards(host)).as("no card for the refused call").isEqualTo(CARDS_PER_SESSION);

            // another session still gets its card
            write(host, other, "o1");
            cardFor(host, "o1");

            JsonNode rows = host.call("audit.query", "{\"sessionId\":\"" + session + "\",\"toolName\":\"Write\"}")
                    .get("rows");
            assertThat(rows).hasSize(1);
            JsonNode row = rows.get(0);
            assertThat(row.get("toolCallId").asText()).isEqualTo("over");
            assertThat(row.get("decision").asText()).isEqualTo("deny");
            assertThat(row.get("source").asText()).isEqualTo("card-limit");
            assertThat(row.get("errorCode").asText()).isEqualTo("CARD_LIMIT");
            assertThat(row.get("prompted").asBoolean()).isFalse();
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(60))).isZero();
        }
    }
}
