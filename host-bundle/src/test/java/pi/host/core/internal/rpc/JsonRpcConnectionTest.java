package pi.host.core.internal.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.core.internal.json.Json;

/** Protocol-level behaviour of one connection: every bad input is answered, and the next good request still is. */
class JsonRpcConnectionTest {

    private static final String GOOD = "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"echo\",\"params\":{\"x\":1}}";

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<JsonNode> out = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    /**
     * Answers of the "later" method by its {@code n} parameter (pool threads start requests in any
     * order), completed by the test from its own thread.
     */
    private final Map<Integer, java.util.concurrent.CompletableFuture<Object>> later =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Times the beforeBlocking hook of receiveOnCallingThread ran. */
    private final java.util.concurrent.atomic.AtomicInteger hooks = new java.util.concurrent.atomic.AtomicInteger();
    private final Map<String, RpcMethod> methods = Map.of(
            "later", (RpcMethod.Deferred) (params, caller, answer) -> later.put(params.node().path("n").asInt(), answer),
            "inline", (RpcMethod.Inline) (params, caller, answer) -> answer.complete(
                    Map.of("thread", Thread.currentThread().getName())),
            "echo", (params, caller) -> params.node(),
            "where", (params, caller) -> Map.of("thread", Thread.currentThread().getName(),
                    "hooksBefore", hooks.get()),
            "fail", (params, caller) -> {
                throw RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND, "no such session");
            },
            "boom", (params, caller) -> {
                throw new IllegalStateException("bug");
            },
            "block", (params, caller) -> {
                release.await(10, TimeUnit.SECONDS);
                return Map.of("released", true);
            });
    private final JsonRpcConnection connection = new JsonRpcConnection(methods, pool, this::collect, 2, () -> {
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

    /** Sends {@code line}, waits for exactly one answer, then proves a good request is still served. */
    private JsonNode answerTo(String line) throws InterruptedException {
        connection.receive(line);
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 1);
        JsonNode answer = out.get(0);
        connection.receive(GOOD);
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 2);
        assertThat(out.get(1).get("id").asInt()).isEqualTo(99);
        assertThat(out.get(1).get("result").get("x").asInt()).isEqualTo(1);
        return answer;
    }

    private static void assertError(JsonNode answer, int code, boolean nullId) {
        assertThat(answer.get("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(answer.get("error").get("code").asInt()).isEqualTo(code);
        if (nullId) {
            assertThat(answer.get("id").isNull()).isTrue();
        }
    }

    @Test
    void answersARequestWithItsResult() throws Exception {
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"echo\",\"params\":{\"k\":\"v\"}}");
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 1);
        assertThat(out.get(0).get("id").asText()).isEqualTo("a");
        assertThat(out.get(0).get("result").get("k").asText()).isEqualTo("v");
    }

    @Test
    void invalidJsonIsAParseErrorWithNullId() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":1,"), RpcException.PARSE_ERROR, true);
    }

    @Test
    void trailingGarbageIsAParseError() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\"} x"), RpcException.PARSE_ERROR, true);
    }

    @Test
    void duplicateKeysAreAParseError() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"echo\"}"), RpcException.PARSE_ERROR,
                true);
    }

    @Test
    void wrongVersionIsAnInvalidRequest() throws Exception {
        JsonNode answer = answerTo("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"echo\"}");
        assertError(answer, RpcException.INVALID_REQUEST, false);
        assertThat(answer.get("id").asInt()).isEqualTo(7);
    }

    @Test
    void objectIdIsAnInvalidRequestWithNullId() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"echo\"}"),
                RpcException.INVALID_REQUEST, true);
    }

    @Test
    void emptyBatchIsAnInvalidRequest() throws Exception {
        assertError(answerTo("[]"), RpcException.INVALID_REQUEST, true);
    }

    @Test
    void scalarIsAnInvalidRequest() throws Exception {
        assertError(answerTo("42"), RpcException.INVALID_REQUEST, true);
    }

    @Test
    void unknownMethodIsMethodNotFound() throws Exception {
        JsonNode answer = answerTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope\"}");
        assertError(answer, RpcException.METHOD_NOT_FOUND, false);
        assertThat(answer.get("id").asInt()).isEqualTo(3);
    }

    @Test
    void unknownNotificationGetsNoReply() throws Exception {
        connection.receive("{\"jsonrpc\":\"2.0\",\"method\":\"nope\"}");
        connection.receive(GOOD);
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 1);
        assertThat(connection.awaitIdle(5000)).isTrue();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).get("id").asInt()).isEqualTo(99);
    }

    @Test
    void positionalParamsAreInvalidParams() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"echo\",\"params\":[1]}"),
                RpcException.INVALID_PARAMS, false);
    }

    @Test
    void methodErrorsCarryTheStableErrorCode() throws Exception {
        JsonNode answer = answerTo("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"fail\"}");
        assertError(answer, RpcException.INVALID_PARAMS, false);
        assertThat(answer.get("error").get("data").get("errorCode").asText()).isEqualTo("SESSION_NOT_FOUND");
    }

    @Test
    void aCrashingMethodIsAnInternalErrorNotADeadConnection() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"boom\"}"), RpcException.INTERNAL_ERROR,
                false);
    }

    @Test
    void deepNestingIsRefusedQuicklyWithoutStackOverflow() throws Exception {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        JsonNode answer = answerTo("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"echo\",\"params\":{\"a\":" + deep + "}}");
        assertError(answer, RpcException.PARSE_ERROR, true);
        assertThat(answer.get("error").get("message").asText()).contains("nesting");
    }

    @Test
    void oversizedLinesAreAnsweredAsInvalidRequests() throws Exception {
        connection.receiveOversized(20_000_000, 16_777_216);
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 1);
        assertError(out.get(0), RpcException.INVALID_REQUEST, true);
        assertThat(out.get(0).get("error").get("message").asText()).contains("20000000").contains("16777216");
    }

    @Test
    void batchesAnswerEveryRequestInOneArrayAndSkipNotifications() throws Exception {
        connection.receive("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":{\"n\":1}},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"echo\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}, 5]");
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 1);
        JsonNode batch = out.get(0);
        assertThat(batch.isArray()).isTrue();
        assertThat(batch).hasSize(3);
        assertThat(batch.get(0).get("result").get("n").asInt()).isEqualTo(1);
        assertThat(batch.get(1).get("error").get("code").asInt()).isEqualTo(RpcException.METHOD_NOT_FOUND);
        assertThat(batch.get(2).get("error").get("code").asInt()).isEqualTo(RpcException.INVALID_REQUEST);
    }

    @Test
    void tooManyRequestsInFlightAreAnsweredBusyAndTheOthersStillComplete() throws Exception {
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"block\"}");
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"block\"}");
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"block\"}");
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 1);
        assertThat(out.get(0).get("id").asInt()).isEqualTo(3);
        assertThat(out.get(0).get("error").get("code").asInt()).isEqualTo(RpcException.SERVER_BUSY);
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 3);
        assertThat(connection.awaitIdle(5000)).isTrue();
    }

    @Test
    void notificationsReachTheClient() {
        connection.notify("tools.changed", Map.of("added", List.of("x")));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).has("id")).isFalse();
        assertThat(out.get(0).get("method").asText()).isEqualTo("tools.changed");
        assertThat(out.get(0).get("params").get("added").get(0).asText()).isEqualTo("x");
    }

    @Test
    void aClosedConnectionWritesNothing() {
        connection.close();
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":1,");
        connection.notify("tools.changed", Map.of());
        assertThat(out).isEmpty();
    }

    @Test
    void aDeferredMethodIsAnsweredWhenItsAnswerCompletesAndCountsAsInFlightUntilThen() throws Exception {
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"later\",\"params\":{\"n\":1}}");
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"later\",\"params\":{\"n\":2}}");
        await().atMost(Duration.ofSeconds(5)).until(() -> later.size() == 2);
        assertThat(connection.awaitIdle(0)).as("both are still in flight").isFalse();
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"echo\",\"params\":{}}");
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 1);
        assertThat(out.get(0).get("error").get("code").asInt()).as("the in-flight limit of 2 holds")
                .isEqualTo(RpcException.SERVER_BUSY);

        java.util.concurrent.CompletableFuture.runAsync(() -> later.get(2).complete(Map.of("n", 2))).join();
        later.get(1).completeExceptionally(RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND, "gone"));
        await().atMost(Duration.ofSeconds(5)).until(() -> out.size() == 3);
        assertThat(out.get(1).get("id").asInt()).isEqualTo(2);
        assertThat(out.get(1).get("result").get("n").asInt()).isEqualTo(2);
        assertThat(out.get(2).get("id").asInt()).isEqualTo(1);
        assertThat(out.get(2).get("error").get("data").get("errorCode").asText()).isEqualTo("SESSION_NOT_FOUND");
        assertThat(connection.awaitIdle(5_000)).isTrue();
    }

    @Test
    void anInlineMethodIsAnsweredOnTheReceivingThreadWithoutThePool() throws Exception {
        pool.shutdown(); // a request handed to the pool is now refused
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"echo\"}");
        assertThat(out).hasSize(1);
        assertError(out.get(0), RpcException.SERVER_BUSY, false);
        // answered before receive returns, by the thread that received it
        connection.receive("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"inline\"}");
        assertThat(out).hasSize(2);
        assertThat(out.get(1).get("id").asInt()).isEqualTo(4);
        assertThat(out.get(1).get("result").get("thread").asText()).isEqualTo(Thread.currentThread().getName());
        assertThat(connection.awaitIdle(0)).isTrue();
    }

    private void receiveHere(String line) {
        byte[] bytes = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        connection.receiveOnCallingThread(bytes, 0, bytes.length, hooks::incrementAndGet);
    }

    @Test
    void onTheCallingThreadARequestRunsHereAndIsAnsweredBeforeTheCallReturns() throws Exception {
        pool.shutdown(); // a request handed to the pool would now be answered busy
        connection.receiveOnCallingThread("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"where\"}");
        assertThat(out).hasSize(1);
        assertThat(out.get(0).get("id").asInt()).isEqualTo(1);
        assertThat(out.get(0).get("result").get("thread").asText()).isEqualTo(Thread.currentThread().getName());
        assertThat(connection.awaitIdle(0)).isTrue();
    }

    @Test
    void onTheCallingThreadTheHookRunsOnceBeforeARequestThatMayBlockAndNotForAnInlineOne() {
        pool.shutdown();
        receiveHere("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"where\"}");
        assertThat(out.get(0).get("result").get("hooksBefore").asInt()).as("run before the method").isEqualTo(1);
        assertThat(hooks.get()).isEqualTo(1);
        receiveHere("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"inline\"}");
        assertThat(out).hasSize(2);
        assertThat(out.get(1).get("result").get("thread").asText()).isEqualTo(Thread.currentThread().getName());
        assertThat(hooks.get()).as("an inline method never blocks").isEqualTo(1);
    }

    @Test
    void onTheCallingThreadBadInputIsAnsweredWithTheSameErrorsWithoutTheHook() {
        receiveHere("{\"jsonrpc\":\"2.0\",\"id\":1,");
        receiveHere("{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"echo\"}");
        receiveHere("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope\"}");
        receiveHere("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"echo\",\"params\":[1]}");
        receiveHere("[]");
        receiveHere("42");
        receiveHere("{\"jsonrpc\":\"2.0\",\"method\":\"nope\"}"); // an unknown notification: no reply
        receiveHere("");
        assertThat(out).hasSize(6);
        assertError(out.get(0), RpcException.PARSE_ERROR, true);
        assertError(out.get(1), RpcException.INVALID_REQUEST, false);
        assertThat(out.get(1).get("id").asInt()).isEqualTo(7);
        assertError(out.get(2), RpcException.METHOD_NOT_FOUND, false);
        assertThat(out.get(2).get("id").asInt()).isEqualTo(3);
        assertError(out.get(3), RpcException.INVALID_PARAMS, false);
        assertError(out.get(4), RpcException.INVALID_REQUEST, true);
        assertError(out.get(5), RpcException.INVALID_REQUEST, true);
        assertThat(hooks.get()).isZero();
    }

    @Test
    void onTheCallingThreadABatchRunsOnThePoolAndIsAnsweredBeforeTheCallReturns() {
        receiveHere("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"where\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}]");
        assertThat(out).hasSize(1);
        JsonNode batch = out.get(0);
        assertThat(batch).hasSize(2);
        assertThat(batch.get(0).get("result").get("thread").asText()).isNotEqualTo(Thread.currentThread().getName());
        assertThat(batch.get(1).get("error").get("code").asInt()).isEqualTo(RpcException.METHOD_NOT_FOUND);
        assertThat(hooks.get()).as("run before a batch, whose requests may block").isEqualTo(1);
    }

    @Test
    void onTheCallingThreadAnAnswerGivenByAnotherThreadIsWaitedFor() throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<?> call = caller.submit(
                    () -> receiveHere("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"later\",\"params\":{\"n\":5}}"));
            await().atMost(Duration.ofSeconds(5)).until(() -> later.containsKey(5) && hooks.get() == 1);
            assertThat(call.isDone()).as("still waiting for the answer").isFalse();
            assertThat(out).isEmpty();
            later.get(5).complete(Map.of("n", 5));
            call.get(5, TimeUnit.SECONDS);
            assertThat(out).hasSize(1);
            assertThat(out.get(0).get("result").get("n").asInt()).isEqualTo(5);
        } finally {
            caller.shutdownNow();
        }
    }
}
