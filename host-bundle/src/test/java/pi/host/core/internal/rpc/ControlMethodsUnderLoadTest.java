package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.json.Json;

/**
 * Pins issue 12.6 at the connection: with the in-flight bound taken by requests that wait, a control
 * method (the one that would end them) was refused as "too many requests in flight".
 */
class ControlMethodsUnderLoadTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<JsonNode> out = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final Map<String, RpcMethod> methods = Map.of(
            "wait", (params, caller) -> {
                release.await(10, TimeUnit.SECONDS);
                return Map.of("released", true);
            },
            "resolve", (params, caller) -> {
                release.countDown();
                return Map.of("resolved", true);
            },
            "echo", (params, caller) -> params.node());
    private final JsonRpcConnection connection = new JsonRpcConnection(methods, Set.of("resolve"), pool,
            this::collect, 2, () -> {
            });

    @AfterEach
    void stop() {
        release.countDown();
        pool.shutdownNow();
    }

    private void collect(String line) {
        try {
            out.add(Json.mapper().readTree(line));
        } catch (Exception e) {
            throw new AssertionError("host wrote invalid JSON: " + line, e);
        }
    }

    private JsonNode answer(int id) {
        return await().atMost(Duration.ofSeconds(5)).until(
                () -> out.stream().filter(m -> m.path("id").asInt() == id).findFirst(), java.util.Optional::isPresent)
                .get();
    }

    @Test
    void aControlMethodIsAnsweredWhileWaitingRequestsHoldTheWholeBound() throws Exception {
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"wait\"}");
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"wait\"}");
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"echo\"}");
        assertThat(answer(3).get("error").get("code").asInt()).as("the bound is taken")
                .isEqualTo(RpcException.SERVER_BUSY);

        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resolve\"}");
        assertThat(answer(4).get("result").get("resolved").asBoolean()).isTrue();
        assertThat(answer(1).get("result").get("released").asBoolean()).isTrue();
        assertThat(answer(2).get("result").get("released").asBoolean()).isTrue();
        assertThat(connection.awaitIdle(5_000)).isTrue();
    }

    @Test
    void aControlMethodOnTheCallingThreadIsAnsweredWhileTheBoundIsTaken() {
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"wait\"}");
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"wait\"}");
        connection.receiveOnCallingThread("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resolve\"}");
        assertThat(out).anyMatch(m -> m.path("id").asInt() == 5 && m.path("result").path("resolved").asBoolean());
    }

    @Test
    void aControlMethodRunsWhenThePoolTakesNoMoreWork() {
        pool.shutdown();
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"echo\"}");
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resolve\"}");
        assertThat(answer(6).get("error").get("message").asText()).isEqualTo("the host is shutting down");
        assertThat(answer(7).get("result").get("resolved").asBoolean()).isTrue();
    }
}
