package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.json.Json;

/**
 * Leader/follower reading: the thread that read a request runs it, another one reads on. The
 * connection's pool refuses everything here, so any request that went to it would be answered
 * SERVER_BUSY: every answer below proves its request ran on a reading thread.
 */
class LineTransportTest {

    private static final String READER = "test-reader-";

    private final ExecutorService readers = Executors.newCachedThreadPool(HostRpcEndpoint.daemonThreads(READER));
    private final BlockingInput input = new BlockingInput();
    private final List<JsonNode> out = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    /** Inline marks in the order they were run, which is the order their lines were read. */
    private final List<Integer> marks = new CopyOnWriteArrayList<>();
    /** Thread each "work" request ran on, by its n. */
    private final Map<Integer, String> work = new ConcurrentHashMap<>();
    private final AtomicInteger workRuns = new AtomicInteger();
    private final AtomicInteger ends = new AtomicInteger();
    private final List<Boolean> idleAtEnd = new CopyOnWriteArrayList<>();

    private final Map<String, RpcMethod> methods = Map.of(
            "block", (params, caller) -> {
                release.await(10, TimeUnit.SECONDS);
                return Map.of("released", true);
            },
            "echo", (params, caller) -> params.node(),
            "work", (params, caller) -> {
                workRuns.incrementAndGet();
                work.put(params.node().path("n").asInt(), Thread.currentThread().getName());
                return Map.of("n", params.node().path("n").asInt());
            },
            "mark", (RpcMethod.Inline) (params, caller, answer) -> {
                marks.add(params.node().path("n").asInt());
                answer.complete(Map.of());
            });
    private final JsonRpcConnection connection = new JsonRpcConnection(methods, task -> {
        throw new RejectedExecutionException("no pool in this test");
    }, this::collect, 100_000, () -> {
    });
    private final LineTransport transport = new LineTransport(input, 1024 * 1024, connection, readers, () -> {
        ends.incrementAndGet();
        try {
            idleAtEnd.add(connection.awaitIdle(0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    });

    @AfterEach
    void stop() {
        release.countDown();
        input.end();
        transport.stop();
        readers.shutdownNow();
    }

    private void collect(String line) {
        try {
            out.add(Json.mapper().readTree(line));
        } catch (Exception e) {
            throw new AssertionError("host wrote invalid JSON: " + line, e);
        }
    }

    private JsonNode answer(int id) {
        return out.stream().filter(a -> a.path("id").asInt(-1) == id).findFirst().orElse(null);
    }

    private static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}\n";
    }

    @Test
    void aRequestBlockedOnTheThreadThatReadItDoesNotStopTheNextLineFromBeingReadAndAnswered() throws Exception {
        transport.start();
        input.offer(request(1, "block", "{}"));
        input.offer(request(2, "echo", "{\"x\":2}"));
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(2) != null);
        assertThat(answer(2).path("result").path("x").asInt()).isEqualTo(2);
        assertThat(answer(1)).as("still blocked").isNull();

        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(1) != null);
        assertThat(answer(1).path("result").path("released").asBoolean()).isTrue();
        assertThat(out).hasSize(2);
    }

    @Test
    void requestsEndingWithinTheGraceAllRunOnTheThreadThatReadsThemWithNoHandOff() {
        LineTransport patient = new LineTransport(input, 1024 * 1024, connection, readers, ends::incrementAndGet,
                TimeUnit.SECONDS.toNanos(30));
        patient.start();
        for (int i = 0; i < 50; i++) {
            int id = 100 + i;
            input.offer(request(id, "work", "{\"n\":" + i + "}"));
            await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                    .until(() -> answer(id) != null);
        }
        // each ended within the grace period, so the reading never left the first reader
        assertThat(work).hasSize(50);
        assertThat(work.values().stream().distinct()).hasSize(1).allMatch(t -> t.startsWith(READER));
        patient.stop();
    }

    @Test
    void linesAreReadExactlyOnceAndInOrderWhileManyRequestsRunOnTheReadingThreads() throws Exception {
        int n = 400;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < n; i++) {
            // every fifth request is long enough to span reads and outgrow the reader's first line buffer
            String pad = i % 5 == 0 ? ",\"pad\":\"" + "p".repeat(9_000 + i) + "\"" : "";
            all.append(request(2 * i, "work", "{\"n\":" + i + pad + "}"));
            all.append(request(2 * i + 1, "mark", "{\"n\":" + i + "}"));
        }
        byte[] bytes = all.toString().getBytes(StandardCharsets.UTF_8);
        Random random = new Random(42);
        for (int at = 0; at < bytes.length;) {
            int size = Math.min(bytes.length - at, 1 + random.nextInt(20_000));
            input.offer(java.util.Arrays.copyOfRange(bytes, at, at + size));
            at += size;
        }
        transport.start();
        input.end();

        await().atMost(Duration.ofSeconds(30)).until(() -> out.size() == 2 * n);
        assertThat(connection.awaitIdle(5_000)).isTrue();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(i);
        }
        assertThat(marks).as("inline requests run by the reader, in the order read").isEqualTo(expected);
        assertThat(workRuns.get()).isEqualTo(n);
        assertThat(work.keySet()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(work.values()).allMatch(thread -> thread.startsWith(READER));
        assertThat(out.stream().map(a -> a.path("id").asInt()).distinct().count()).isEqualTo(2L * n);
        assertThat(out).allMatch(a -> a.has("result"));
        await().atMost(Duration.ofSeconds(5)).until(() -> ends.get() == 1);
    }

    @Test
    void endOfInputIsFoundOnceAfterEveryLineWasReceivedAndTheRequestsStillRunAreAnswered() throws Exception {
        transport.start();
        input.offer(request(1, "block", "{}"));
        input.offer(request(2, "echo", "{}").trim()); // a last line without its newline is still a line
        input.end();
        await().atMost(Duration.ofSeconds(5)).until(() -> ends.get() == 1);
        assertThat(idleAtEnd).as("the blocked request had been received when the end was found").containsExactly(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(2) != null);

        release.countDown();
        assertThat(connection.awaitIdle(5_000)).isTrue();
        assertThat(answer(1).path("result").path("released").asBoolean()).isTrue();
        assertThat(out).hasSize(2);
        assertThat(ends.get()).isEqualTo(1);
    }

    @Test
    void anAnswerThatCannotBeWrittenEndsTheInputInsteadOfLeavingNoReader() {
        JsonRpcConnection deaf = new JsonRpcConnection(methods, readers, line -> {
            throw new java.io.UncheckedIOException("stdout closed", new java.io.IOException("broken pipe"));
        }, 10, () -> {
        });
        new LineTransport(input, 1024, deaf, readers, ends::incrementAndGet).start();
        input.offer("not json\n"); // answered on the reader: the parse error's write fails there
        await().atMost(Duration.ofSeconds(5)).until(() -> ends.get() == 1);
    }

    /** An input stream fed by the test; a read blocks until something was offered or the end was. */
    private static final class BlockingInput extends InputStream {
        private static final byte[] END = new byte[0];
        private final BlockingQueue<byte[]> pieces = new LinkedBlockingQueue<>();
        private byte[] current = new byte[0];
        private int pos;
        private boolean ended;

        void offer(String text) {
            offer(text.getBytes(StandardCharsets.UTF_8));
        }

        void offer(byte[] piece) {
            pieces.add(piece);
        }

        void end() {
            pieces.add(END);
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            while (pos == current.length) {
                if (ended) {
                    return -1;
                }
                try {
                    current = pieces.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
                pos = 0;
                ended = current == END;
            }
            int n = Math.min(len, current.length - pos);
            System.arraycopy(current, pos, b, off, n);
            pos += n;
            return n;
        }
    }
}
