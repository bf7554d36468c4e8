package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A call's {@code tool.completed} and its answer leave in one write (ToolPipeline opens an
 * {@link OutputBatch} around the call's end): the sink sees both lines, in that order, and one flush
 * after them; nothing of another thread, and nothing outside a batch, is ever held.
 */
class OutputBatchTest {

    private final ExecutorService pool = Executors.newCachedThreadPool();
    /** What the sink saw, in order: "write &lt;first 60 chars&gt;" and "flush". */
    private final List<String> seen = new ArrayList<>();
    private final BufferedSink sink = new BufferedSink() {
        @Override
        public void write(String message) {
            seen.add("write " + message.substring(0, Math.min(60, message.length())));
        }

        @Override
        public void flush() {
            seen.add("flush");
        }
    };
    private final Map<String, RpcMethod> methods = Map.of(
            // as the pipeline ends a call: tool.completed, then the answer, inside one batch
            "end", (RpcMethod.Deferred) (params, caller, answer) -> {
                try (OutputBatch lines = OutputBatch.open()) {
                    caller.notify("tool.completed", Map.of("ok", true));
                    answer.complete(Map.of("done", true));
                    seen.add("answered"); // what the answer wakes runs from here on
                }
            },
            // another thread sends a line while this one's batch holds its own
            "other", (RpcMethod.Deferred) (params, caller, answer) -> {
                try (OutputBatch lines = OutputBatch.open()) {
                    caller.notify("tool.completed", Map.of("ok", true));
                    pool.submit(() -> caller.notify("tool.output", Map.of("chunk", "x"))).get(5, TimeUnit.SECONDS);
                    answer.complete(Map.of("done", true));
                }
            },
            "nested", (RpcMethod.Deferred) (params, caller, answer) -> {
                try (OutputBatch outer = OutputBatch.open()) {
                    try (OutputBatch inner = OutputBatch.open()) {
                        caller.notify("tool.completed", Map.of("ok", true));
                    }
                    seen.add("inner closed");
                    answer.complete(Map.of("done", true));
                }
            },
            "plain", (RpcMethod.Deferred) (params, caller, answer) -> {
                caller.notify("tool.completed", Map.of("ok", true));
                answer.complete(Map.of("done", true));
            });
    private final JsonRpcConnection connection = new JsonRpcConnection(methods, pool, sink, 4, () -> {
    });

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private void receiveHere(String method) {
        byte[] line = ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\"}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        connection.receiveOnCallingThread(line, 0, line.length, () -> {
        });
    }

    private static final String COMPLETED = "write {\"jsonrpc\":\"2.0\",\"method\":\"tool.completed\"";
    private static final String ANSWER = "write {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"done";

    /** The sink saw exactly these, in order: a line starting with each prefix, or "flush" / a marker. */
    private void assertSeen(String... expected) {
        assertThat(seen).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            assertThat(seen.get(i)).as("event " + i).startsWith(expected[i]);
        }
    }

    /**
     * Pins the joint write: a call's notification waits for its answer, and the answer's own flush
     * sends both, before the answer's future wakes anyone; the batch's end has nothing left to send.
     */
    @Test
    void aCallsCompletionAndItsAnswerLeaveInOneFlushInThatOrder() {
        receiveHere("end");

        assertSeen(COMPLETED, ANSWER, "flush", "answered");
    }

    @Test
    void aHeldNotificationWithNoAnswerAfterItIsSentWhenTheBatchCloses() {
        try (OutputBatch lines = OutputBatch.open()) {
            connection.notify("tool.completed", Map.of("ok", true));
            seen.add("still open");
        }

        assertSeen(COMPLETED, "still open", "flush");
    }

    @Test
    void withoutABatchEveryLineIsFlushedAtOnce() {
        receiveHere("plain");

        assertSeen(COMPLETED, "flush", ANSWER, "flush");
    }

    @Test
    void anotherThreadsLineIsSentAtOnceAndTakesTheHeldLineWithIt() {
        receiveHere("other");

        // the other thread's line is flushed at once (with the held one), before this batch ends
        assertSeen(COMPLETED, "write {\"jsonrpc\":\"2.0\",\"method\":\"tool.output\"", "flush", ANSWER, "flush");
    }

    @Test
    void anInnerBatchLeavesTheFlushToTheOuterOne() {
        receiveHere("nested");

        assertSeen(COMPLETED, "inner closed", ANSWER, "flush");
    }

    @Test
    void aSinkThatCannotFlushDoesNotFailTheCallsEndAndTheNextBatchStartsClean() {
        BufferedSink broken = new BufferedSink() {
            @Override
            public void write(String message) {
            }

            @Override
            public void flush() {
                throw new java.io.UncheckedIOException("stdout closed", new java.io.IOException("closed"));
            }
        };
        try (OutputBatch lines = OutputBatch.open()) {
            synchronized (broken) {
                assertThat(OutputBatch.holds(broken)).isTrue();
            }
            synchronized (sink) {
                assertThat(OutputBatch.holds(sink)).isTrue();
            }
        }
        assertThat(seen).containsExactly("flush"); // the good sink was still flushed
        synchronized (sink) {
            assertThat(OutputBatch.holds(sink)).isFalse(); // closed: nothing is held any more
        }
    }
}
