package pi.host.mcp.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** What the bridge's SDK client sends reaches the SDK transport one message at a time. */
class ObservedTransportTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    /**
     * Pins the lost request: while one thread's message is still being put into the SDK's stdio sink
     * (which makes a second emitter spin for 100 ms and then drop its message), a second thread's
     * message waits, parked, and goes after it.
     */
    @Test
    void aSecondMessageWaitsWhileTheFirstIsInTheTransport() throws InterruptedException {
        HoldingTransport sdk = new HoldingTransport();
        ObservedTransport transport = new ObservedTransport(sdk);
        Thread first = new Thread(() -> transport.sendMessage(notification("first")).block(), "send-1");
        first.start();
        await().atMost(BOUND).until(() -> sdk.inside.get() == 1);

        Thread second = new Thread(() -> transport.sendMessage(notification("second")).block(), "send-2");
        second.start();
        await().atMost(BOUND).until(() -> second.getState() == Thread.State.BLOCKED);
        assertThat(sdk.inside.get()).as("only the first message is in the transport").isEqualTo(1);

        sdk.release.countDown();
        first.join(BOUND.toMillis());
        second.join(BOUND.toMillis());
        assertThat(sdk.sent).containsExactly("first", "second");
        assertThat(sdk.most.get()).isEqualTo(1);
    }

    private static McpSchema.JSONRPCNotification notification(String method) {
        return new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method, Map.of());
    }

    /** The SDK transport's eager hand-over, held open for the message named "first". */
    private static final class HoldingTransport implements McpClientTransport {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> sent = new CopyOnWriteArrayList<>();

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            String method = ((McpSchema.JSONRPCNotification) message).method();
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try {
                if (method.equals("first")) {
                    release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
                }
                sent.add(method);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inside.decrementAndGet();
            }
            return Mono.empty();
        }

        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
            return Mono.empty();
        }

        @Override
        public void setExceptionHandler(Consumer<Throwable> handler) {
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            throw new UnsupportedOperationException();
        }
    }
}
