package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.json.JsonText;
import pi.host.core.internal.json.StreamedJson;

/**
 * A result or a notification's params that writes itself ({@link StreamedJson}: {@code tools.execute}'s
 * answer, {@code tool.completed}) leaves the connection as byte for byte the line its tree gave, alone,
 * in a batch beside trees and errors, whatever the request's id; a result that fails while it is written
 * is answered as an internal error of its request, as a result without a tree was.
 */
class StreamedAnswerTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** A result as a tree; "streamed" answers the same value written field by field. */
    private static ObjectNode result() {
        ObjectNode r = NODES.objectNode().put("ok", true).put("isError", false).putNull("errorCode");
        r.putArray("content").addObject().put("type", "text").put("text", "1\tline \"one\"\n2\t€ 😀 \u0007\n");
        r.putObject("details").put("lines", 2);
        r.put("traceId", "t-1");
        return r;
    }

    private static final StreamedJson STREAMED = out -> JsonText.tree(out, result());

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Map<String, RpcMethod> methods = Map.of(
            "tree", (RpcMethod.Deferred) (params, caller, answer) -> answer.complete(result()),
            "streamed", (RpcMethod.Deferred) (params, caller, answer) -> answer.complete(STREAMED),
            "broken", (RpcMethod.Deferred) (params, caller, answer) -> answer.complete((StreamedJson) out -> {
                out.writeStartObject();
                throw new IllegalStateException("half written");
            }),
            "notifyTree", (params, caller) -> {
                caller.notify("tool.completed", NODES.objectNode().put("ok", true).putNull("errorCode"));
                return Map.of();
            },
            "notifyStreamed", (params, caller) -> {
                caller.notify("tool.completed", (StreamedJson) out -> JsonText.tree(out,
                        NODES.objectNode().put("ok", true).putNull("errorCode")));
                return Map.of();
            });
    private final JsonRpcConnection connection = new JsonRpcConnection(methods, pool, lines::add, 8, () -> {
    });

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** The lines written for {@code request}, received on the calling thread. */
    private List<String> linesFor(String request) {
        lines.clear();
        connection.receiveOnCallingThread(request);
        return List.copyOf(lines);
    }

    private static String call(Object id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
    }

    @Test
    void aStreamedAnswerIsTheTreesLineForEveryKindOfId() {
        for (Object id : new Object[] {7, "\"call-\\\"1\\\"\"", "null", 12345678901234L, 1.5, "123456789012345678901234567890"}) {
            List<String> streamed = linesFor(call(id, "streamed"));
            List<String> tree = linesFor(call(id, "tree"));

            assertThat(streamed).as("id %s", id).hasSize(1).isEqualTo(tree);
            assertThat(streamed.get(0)).startsWith("{\"jsonrpc\":\"2.0\",\"id\":");
        }
    }

    @Test
    void aStreamedNotificationIsTheTreesLine() {
        List<String> streamed = linesFor(call(1, "notifyStreamed"));
        List<String> tree = linesFor(call(1, "notifyTree"));

        assertThat(streamed).hasSize(2).isEqualTo(tree);
        assertThat(streamed.get(0)).isEqualTo(
                "{\"jsonrpc\":\"2.0\",\"method\":\"tool.completed\",\"params\":{\"ok\":true,\"errorCode\":null}}");
    }

    @Test
    void aBatchMixingStreamedAnswersTreesAndErrorsIsTheTreesLine() {
        String streamed = "[" + call(1, "streamed") + "," + call(2, "nope") + "," + call("\"x\"", "streamed") + ","
                + "{\"jsonrpc\":\"2.0\",\"method\":\"streamed\"}," + call(3, "tree") + "]";
        String tree = streamed.replace("\"streamed\"", "\"tree\"");

        lines.clear();
        connection.receive(streamed);
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 1);
        String streamedLine = lines.get(0);
        lines.clear();
        connection.receive(tree);
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 1);

        assertThat(streamedLine).isEqualTo(lines.get(0));
        assertThat(streamedLine).startsWith("[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"ok\":true")
                .contains("\"id\":2,\"error\":{\"code\":-32601");
    }

    @Test
    void aResultThatFailsWhileWrittenIsAnInternalErrorOfItsRequest() throws Exception {
        List<String> answer = linesFor(call(5, "broken"));

        assertThat(answer).hasSize(1);
        JsonNode error = pi.host.core.internal.json.Json.mapper().readTree(answer.get(0));
        assertThat(error.get("id").asInt()).isEqualTo(5);
        assertThat(error.path("error").path("code").asInt()).isEqualTo(RpcException.INTERNAL_ERROR);
        assertThat(error.path("error").path("message").asText()).contains("half written");
    }

    @Test
    void inABatchAResultThatFailsWhileWrittenIsAnsweredAloneAsAnInternalError() throws Exception {
        lines.clear();
        connection.receive("[" + call(1, "streamed") + "," + call(2, "broken") + "," + call(3, "streamed") + "]");
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.size() == 1);

        JsonNode batch = pi.host.core.internal.json.Json.mapper().readTree(lines.get(0));
        assertThat(batch).hasSize(3);
        for (JsonNode answer : batch) {
            if (answer.get("id").asInt() == 2) {
                assertThat(answer.path("error").path("code").asInt()).isEqualTo(RpcException.INTERNAL_ERROR);
            } else {
                assertThat(answer.get("result")).isEqualTo(result());
            }
        }
    }
}
