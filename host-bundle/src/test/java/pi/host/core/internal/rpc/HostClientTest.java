package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;

/** The in-process client the console and the MCP front share, against the host's real connection. */
class HostClientTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final AtomicReference<JsonRpcConnection> connection = new AtomicReference<>();
    private final Map<String, RpcMethod> methods = Map.of(
            "echo", (params, caller) -> params.node(),
            "where", (params, caller) -> Map.of("thread", Thread.currentThread().getName()),
            "fail", (params, caller) -> {
                throw RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND, "no such session");
            },
            "tell", (params, caller) -> {
                connection.get().notify("tool.output", Map.of("n", 1));
                connection.get().notify("tools.changed", Map.of("n", 2));
                return Map.of();
            },
            "never", (RpcMethod.Deferred) (params, caller, answer) -> { });
    private final HostClient client = new HostClient(out -> {
        connection.set(new JsonRpcConnection(methods, pool, out, 4, () -> { }));
        return connection.get();
    });

    @AfterEach
    void stop() {
        client.close();
        pool.shutdownNow();
    }

    @Test
    void aResultComesBackOnEitherPath() throws Exception {
        assertThat(client.call("echo", HostClient.params().put("x", 1)).path("x").asInt()).isEqualTo(1);
        assertThat(client.callOnCallingThread("echo", HostClient.params().put("x", 2)).path("x").asInt()).isEqualTo(2);
    }

    @Test
    void callOnCallingThreadRunsTheRequestOnTheCaller() throws Exception {
        String here = Thread.currentThread().getName();
        assertThat(client.callOnCallingThread("where", HostClient.params()).path("thread").asText()).isEqualTo(here);
        assertThat(client.call("where", HostClient.params()).path("thread").asText()).isNotEqualTo(here);
    }

    @Test
    void anErrorAnswerBecomesAHostErrorWithItsStableCode() {
        assertThatThrownBy(() -> client.callOnCallingThread("fail", HostClient.params()))
                .isInstanceOfSatisfying(HostError.class, e -> {
                    assertThat(e.code()).isEqualTo(-32602);
                    assertThat(e.errorCode()).isEqualTo("SESSION_NOT_FOUND");
                    assertThat(e.describe()).isEqualTo("SESSION_NOT_FOUND: no such session");
                });
        assertThatThrownBy(() -> client.call("nope", HostClient.params()))
                .isInstanceOfSatisfying(HostError.class, e -> assertThat(e.code()).isEqualTo(HostError.METHOD_NOT_FOUND));
    }

    @Test
    void onlyTheNotificationsListenedForAreHandedOn() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        client.listen(Set.of("tools.changed"), (method, params) -> heard.add(method + params.path("n").asInt()));
        client.callOnCallingThread("tell", HostClient.params());
        client.listen((method, params) -> heard.add(method + params.path("n").asInt()));
        client.callOnCallingThread("tell", HostClient.params());
        assertThat(heard).containsExactly("tools.changed2", "tool.output1", "tools.changed2");
    }

    @Test
    void closingFailsWhatStillWaitsAndRefusesWhatComesAfter() {
        CompletableFuture<JsonNode> waiting = client.send("never", HostClient.params());
        client.close();
        assertThatThrownBy(waiting::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(HostError.class).hasMessageContaining("the host has stopped");
        assertThatThrownBy(() -> client.callOnCallingThread("echo", HostClient.params()))
                .isInstanceOfSatisfying(HostError.class, e -> assertThat(e.code()).isEqualTo(HostError.STOPPED));
        assertThat(client.send("echo", HostClient.params())).isCompletedExceptionally();
    }
}
