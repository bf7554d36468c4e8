package pi.host.core.internal.execute;

import pi.host.core.internal.info.StartupGate;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.events.HostEvents;
import pi.host.spi.AsyncBody;

/** The tool body's budget and cancellation, with the body on the calling thread (spec §3). */
class ToolRunnerTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ToolRunner runner = new ToolRunner();
    private final ExecutorService callers = Executors.newCachedThreadPool();
    /** Released by each test at its end, so that no hung body outlives it. */
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<ToolRunner.Outcome> outcomes = new CopyOnWriteArrayList<>();
    private final List<String> outcomeThreads = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        release.countDown();
        callers.shutdown();
        callers.awaitTermination(10, TimeUnit.SECONDS);
        runner.close();
    }

    @Test
    void aBodyThatReturnsRunsOnTheCallingThreadAndItsOutcomeComesBeforeRunReturns() {
        CallCancellation cancel = new CallCancellation("T");
        List<String> bodyThread = new CopyOnWriteArrayList<>();
        runner.run(tool(c -> {
            bodyThread.add(Thread.currentThread().getName());
            return ToolResult.ok("done");
        }), call(cancel), cancel, 60_000, false, this::record);

        assertThat(bodyThread).containsExactly(Thread.currentThread().getName());
        assertThat(outcomeThreads).containsExactly(Thread.currentThread().getName());
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.kind()).isEqualTo(ToolRunner.Kind.DONE);
            assertThat(o.result().text()).containsExactly("done");
        });
    }

    @Test
    void aHungBodyIsAnsweredTimeoutAtItsBudgetAndItsLateResultIsDropped() {
        CallCancellation cancel = new CallCancellation("T");
        CountDownLatch bodyReturned = new CountDownLatch(1);
        long started = System.nanoTime();
        callers.execute(() -> {
            runner.run(tool(c -> {
                release.await(); // ignores cancellation, as a stuck plugin would
                return ToolResult.ok("too late");
            }), call(cancel), cancel, 200, false, this::record);
            bodyReturned.countDown();
        });

        Awaitility.await().atMost(BOUND).until(() -> outcomes.size() == 1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(outcomes.get(0).kind()).isEqualTo(ToolRunner.Kind.TIMEOUT);
        assertThat(cancel.reason()).isEqualTo("timeout");
        assertThat(bodyReturned.getCount()).as("the body is still running").isEqualTo(1);

        release.countDown();
        Awaitility.await().atMost(BOUND).until(() -> bodyReturned.getCount() == 0);
        assertThat(outcomes).as("the late result is dropped").hasSize(1);
    }

    @Test
    void anAbortOfAHungReadOnlyBodyIsAnsweredAtOnce() {
        CallCancellation cancel = new CallCancellation("Read");
        CountDownLatch inBody = new CountDownLatch(1);
        callers.execute(() -> runner.run(tool(c -> {
            inBody.countDown();
            release.await();
            return ToolResult.ok("too late");
        }), call(cancel), cancel, 60_000, true, this::record));
        Awaitility.await().atMost(BOUND).until(() -> inBody.getCount() == 0);

        cancel.cancel("aborted");
        Awaitility.await().atMost(BOUND).until(() -> outcomes.size() == 1);
        assertThat(outcomes.get(0).kind()).isEqualTo(ToolRunner.Kind.ABORTED);
    }

    @Test
    void anAbortOfAMutatingBodyWaitsForTheProvidersOwnResult() {
        CallCancellation cancel = new CallCancellation("Write");
        CountDownLatch inBody = new CountDownLatch(1);
        CountDownLatch sawCancel = new CountDownLatch(1);
        CountDownLatch mayReturn = new CountDownLatch(1);
        callers.execute(() -> runner.run(tool(c -> {
            inBody.countDown();
            Awaitility.await().atMost(BOUND).until(c::isCancelled);
            sawCancel.countDown();
            mayReturn.await();
            return ToolResult.ok("stopped after the write");
        }), call(cancel), cancel, 60_000, false, this::record));
        Awaitility.await().atMost(BOUND).until(() -> inBody.getCount() == 0);

        cancel.cancel("aborted");
        Awaitility.await().atMost(BOUND).until(() -> sawCancel.getCount() == 0);
        assertThat(outcomes).as("no answer while the provider is still at work").isEmpty();
        mayReturn.countDown();
        Awaitility.await().atMost(BOUND).until(() -> outcomes.size() == 1);
        assertThat(outcomes.get(0).kind()).isEqualTo(ToolRunner.Kind.DONE);
        assertThat(outcomes.get(0).result().text()).containsExactly("stopped after the write");
    }

    @Test
    void aBodyThatReturnsInTimeDisarmsItsTimeout() {
        CallCancellation cancel = new CallCancellation("T");
        runner.run(tool(c -> ToolResult.ok("quick")), call(cancel), cancel, 100, false, this::record);

        Awaitility.await().during(Duration.ofMillis(400)).atMost(BOUND).until(() -> !cancel.isCancelled());
        assertThat(outcomes).singleElement().extracting(ToolRunner.Outcome::kind).isEqualTo(ToolRunner.Kind.DONE);
    }

    @Test
    void aThrowingBodyIsAFailureAndAnInterruptItLeftDoesNotReachTheThreadsNextTask() {
        CallCancellation cancel = new CallCancellation("T");
        runner.run(tool(c -> {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("boom");
        }), call(cancel), cancel, 60_000, false, this::record);

        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.kind()).isEqualTo(ToolRunner.Kind.FAILED);
            assertThat(o.failure()).contains("boom");
        });
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    /** Pins: an asynchronous body's call ends on the thread that completes it; the caller is not held. */
    @Test
    void anAsyncBodyEndsTheCallFromTheThreadThatCompletesIt() throws Exception {
        CallCancellation cancel = new CallCancellation("mcp_s_echo");
        CompletableFuture<ToolResult> answer = new CompletableFuture<>();
        runner.run(async(c -> answer), call(cancel), cancel, 60_000, false, this::record);
        assertThat(outcomes).as("run returned before the answer came").isEmpty();

        callers.submit(() -> answer.complete(ToolResult.ok("echo"))).get(10, TimeUnit.SECONDS);
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.kind()).isEqualTo(ToolRunner.Kind.DONE);
            assertThat(o.result().text()).containsExactly("echo");
        });
        assertThat(outcomeThreads).singleElement().isNotEqualTo(Thread.currentThread().getName());
        Awaitility.await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> !cancel.isCancelled());
    }

    /** Pins: an asynchronous body that never answers is answered TOOL_TIMEOUT at its budget, as any body. */
    @Test
    void anAsyncBodyThatNeverAnswersTimesOut() {
        CallCancellation cancel = new CallCancellation("mcp_s_echo");
        CompletableFuture<ToolResult> never = new CompletableFuture<>();
        runner.run(async(c -> never), call(cancel), cancel, 200, false, this::record);

        Awaitility.await().atMost(BOUND).until(() -> outcomes.size() == 1);
        assertThat(outcomes.get(0).kind()).isEqualTo(ToolRunner.Kind.TIMEOUT);
        assertThat(cancel.reason()).isEqualTo("timeout");
        never.complete(ToolResult.ok("too late"));
        assertThat(outcomes).as("the late answer is dropped").hasSize(1);
    }

    /** Pins: an abort of a mutating asynchronous body waits for the body's own answer. */
    @Test
    void anAbortOfAMutatingAsyncBodyWaitsForItsAnswer() {
        CallCancellation cancel = new CallCancellation("mcp_s_write");
        CompletableFuture<ToolResult> answer = new CompletableFuture<>();
        runner.run(async(c -> answer), call(cancel), cancel, 60_000, false, this::record);

        cancel.cancel("aborted");
        Awaitility.await().during(Duration.ofMillis(200)).atMost(BOUND).until(outcomes::isEmpty);
        answer.complete(ToolResult.ok("stopped after the write"));
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.kind()).isEqualTo(ToolRunner.Kind.DONE);
            assertThat(o.result().text()).containsExactly("stopped after the write");
        });
    }

    /** Pins: a start that throws, a failed stage and a null stage are each a typed failure, never a dead call. */
    @Test
    void anAsyncBodyThatFailsIsAFailure() {
        CallCancellation c1 = new CallCancellation("T");
        runner.run(async(c -> {
            throw new IllegalStateException("no start");
        }), call(c1), c1, 60_000, false, this::record);
        CallCancellation c2 = new CallCancellation("T");
        runner.run(async(c -> CompletableFuture.failedFuture(new IllegalStateException("gone"))), call(c2), c2, 60_000,
                false, this::record);
        CallCancellation c3 = new CallCancellation("T");
        runner.run(async(c -> null), call(c3), c3, 60_000, false, this::record);

        assertThat(outcomes).extracting(ToolRunner.Outcome::kind).containsExactly(ToolRunner.Kind.FAILED,
                ToolRunner.Kind.FAILED, ToolRunner.Kind.FAILED);
        assertThat(outcomes).extracting(ToolRunner.Outcome::failure).satisfiesExactly(
                f -> assertThat(f).contains("no start"), f -> assertThat(f).contains("gone"),
                f -> assertThat(f).contains("no stage"));
    }

    @FunctionalInterface
    private interface Start {
        CompletionStage<ToolResult> start(pi.host.api.ToolCall call);
    }

    private static AsyncBody async(Start start) {
        abstract class AsyncTestTool extends TestTool implements AsyncBody {
        }
        return new AsyncTestTool() {
            @Override
            public CompletionStage<ToolResult> start(pi.host.api.ToolCall call) {
                return start.start(call);
            }

            @Override
            public ToolResult execute(pi.host.api.ToolCall call) {
                throw new AssertionError("the host starts an asynchronous body, it never waits in execute");
            }
        };
    }

    /** What every test tool declares. */
    private abstract static class TestTool implements ToolProvider {
        @Override
        public String description() {
            return "test";
        }

        @Override
        public String inputSchema() {
            return "{}";
        }
    }

    private void record(ToolRunner.Outcome outcome) {
        outcomeThreads.add(Thread.currentThread().getName());
        outcomes.add(outcome);
    }

    @FunctionalInterface
    private interface Body {
        ToolResult run(HostToolCall call) throws Exception;
    }

    private static ToolProvider tool(Body body) {
        return new TestTool() {
            @Override
            public ToolResult execute(pi.host.api.ToolCall call) throws Exception {
                return body.run((HostToolCall) call);
            }
        };
    }

    private static HostToolCall call(CallCancellation cancel) {
        return new HostToolCall("T", Map.of(), "s1", "t1", "c1", "tr_1", Instant.now().plusSeconds(60), java.util.List.of(),
                Path.of("."), Path.of("."), cancel, new HostEvents(StartupGate.open()), null, null, java.util.List.of(), null, Map.of(), null);
    }
}
