package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.info.StartupGate;
import pi.host.core.internal.info.StartupGates;

/** Requests that arrive while the later bundles still start wait for them (StartupGate), and only those. */
class StartedMethodsTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final AtomicInteger level = new AtomicInteger(1);
    private final StartupGate gate = StartupGates.at(level, 2);
    private final List<String> out = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private JsonRpcConnection connection(Map<String, RpcMethod> methods, Set<String> control) {
        return new JsonRpcConnection(methods, control, pool, out::add, 16, () -> {
        });
    }

    /** Pins: a call that arrives before the bundles it needs have started waits for them and never fails for it. */
    @Test
    void aCallBeforeTheLaterBundlesStartedWaitsAndThenRuns() {
        AtomicInteger ran = new AtomicInteger();
        JsonRpcConnection c = connection(Map.of(
                "tools.list", StartedMethods.after(gate, (p, caller) -> {
                    ran.incrementAndGet();
                    return List.of("Read");
                }),
                "host.info", (p, caller) -> Map.of("ready", gate.ready())), Set.of());
        c.receive("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools.list\"}");
        c.receive("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"host.info\"}");
        await().atMost(Duration.ofSeconds(10)).until(() -> out.size() == 1);
        assertThat(out.get(0)).contains("\"id\":2").contains("\"ready\":false");
        assertThat(ran).hasValue(0);

        level.set(2);
        StartupGates.levelChanged(gate);
        await().atMost(Duration.ofSeconds(10)).until(() -> out.size() == 2);
        assertThat(out.get(1)).contains("\"id\":1").contains("\"result\":[\"Read\"]");
        assertThat(ran).hasValue(1);
    }

    /** A deferred method (tools.execute) waits too, and answers once, from its own answer. */
    @Test
    void aDeferredCallWaitsAndAnswersOnce() {
        AtomicReference<Thread> startedOn = new AtomicReference<>();
        RpcMethod.Deferred execute = (p, caller, answer) -> {
            startedOn.set(Thread.currentThread());
            answer.complete(Map.of("ok", true));
        };
        JsonRpcConnection c = connection(Map.of("tools.execute", StartedMethods.after(gate, execute)), Set.of());
        c.receive("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools.execute\"}");
        assertThat(out).isEmpty();
        assertThat(startedOn.get()).isNull();
        level.set(3);
        StartupGates.levelChanged(gate);
        await().atMost(Duration.ofSeconds(10)).until(() -> out.size() == 1);
        assertThat(out.get(0)).contains("\"id\":7").contains("\"ok\":true");
    }

    /** An inline method never blocks, the start included: it is not wrapped. */
    @Test
    void anInlineMethodIsLeftAsItIs() {
        RpcMethod.Inline abort = (p, caller, answer) -> answer.complete(Map.of("aborted", false));
        assertThat(StartedMethods.after(gate, abort)).isSameAs(abort);
    }

    /** A host that stops while a call waits answers it busy instead of running it on a half-stopped host. */
    @Test
    void aWaitingCallIsAnsweredBusyWhenTheHostStops() {
        AtomicInteger ran = new AtomicInteger();
        JsonRpcConnection c = connection(Map.of("session.list", StartedMethods.after(gate, (p, caller) -> {
            ran.incrementAndGet();
            return new ArrayList<>();
        })), Set.of());
        c.receive("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session.list\"}");
        StartupGates.stop(gate);
        await().atMost(Duration.ofSeconds(10)).until(() -> out.size() == 1);
        assertThat(out.get(0)).contains("\"id\":3").contains("-32000").contains("shutting down");
        assertThat(ran).hasValue(0);
    }

    /** Without a later level (in-container tests, a framework started at once) nothing waits. */
    @Test
    void aGateWithoutALaterLevelIsOpenAtOnce() {
        CompletableFuture<Boolean> open = CompletableFuture.completedFuture(StartupGate.open().ready());
        assertThat(open.join()).isTrue();
        assertThat(StartupGates.at(new AtomicInteger(1), 0).ready()).isTrue();
    }
}
