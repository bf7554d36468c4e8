package pi.host.core.internal.info;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class WarmUpGivesWayTest {

    /** Pins that an after-answer warm-up waits while a tool call runs and runs once it has ended. */
    @Test
    void aWarmUpWaitsWhileACallRunsAndRunsWhenItEnds() {
        FirstAnswer first = new FirstAnswer();
        AtomicBoolean ran = new AtomicBoolean();
        first.warmUp(() -> ran.set(true));
        first.callStarted();
        first.answered();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofMillis(900)).untilFalse(ran);
        first.callEnded();
        await().atMost(Duration.ofSeconds(30)).untilTrue(ran);
    }

    /**
     * Pins that a burst of short calls, each ended long before the pause, holds a warm-up back until the burst
     * stops: a warm-up waits for a pause, not for a moment with no call running (the calls of a burst do their
     * own lazy work meanwhile).
     */
    @Test
    void aBurstOfShortCallsHoldsAWarmUpBackUntilItStops() throws InterruptedException {
        FirstAnswer first = new FirstAnswer(500);
        AtomicBoolean ran = new AtomicBoolean();
        try (CallBurst burst = new CallBurst(first)) {
            first.warmUp(() -> ran.set(true));
            first.answered();
            await().during(Duration.ofMillis(2000)).atMost(Duration.ofSeconds(4)).untilFalse(ran);
        }
        await().atMost(Duration.ofSeconds(30)).untilTrue(ran);
    }

    /** Pins that a step's later part waits at giveWay while a call runs, and goes on once the calls paused. */
    @Test
    void giveWayHoldsAStepsNextPartWhileACallRuns() {
        FirstAnswer first = new FirstAnswer(50);
        AtomicBoolean secondPart = new AtomicBoolean();
        CountDownLatch callOpen = new CountDownLatch(1);
        first.warmUp(() -> {
            try {
                callOpen.await(30, TimeUnit.SECONDS); // the first part ends while the test's call runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            first.giveWay();
            secondPart.set(true);
        });
        first.answered();
        first.callStarted();
        callOpen.countDown();
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).untilFalse(secondPart);
        first.callEnded();
        await().atMost(Duration.ofSeconds(30)).untilTrue(secondPart);
    }

    /** Pins that a call never waits for a warm-up: starting and ending one return while a warm-up step runs. */
    @Test
    void aCallNeverWaitsForAWarmUpUnderWay() throws InterruptedException {
        FirstAnswer first = new FirstAnswer();
        CountDownLatch inStep = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        first.warmUp(() -> {
            inStep.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        first.answered();
        assertThat(inStep.await(30, TimeUnit.SECONDS)).isTrue();
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
                first.callStarted();
                first.callEnded();
            });
        } finally {
            release.countDown();
        }
    }

    /** Pins that warm-ups run one after the other in the order queued, those queued after the answer too. */
    @Test
    void warmUpsRunOneAfterTheOtherInTheirOrder() {
        FirstAnswer first = new FirstAnswer();
        List<Integer> order = new CopyOnWriteArrayList<>();
        first.warmUp(() -> order.add(1));
        first.warmUp(() -> order.add(2));
        first.answered();
        first.warmUp(() -> order.add(3));
        await().atMost(Duration.ofSeconds(30)).until(() -> order.size() == 3);
        assertThat(order).containsExactly(1, 2, 3);
    }

    /** Pins that a warm-up that fails does not stop the ones after it (the call that needs it does it itself). */
    @Test
    void aFailingWarmUpDoesNotStopTheNext() {
        FirstAnswer first = new FirstAnswer();
        AtomicBoolean ran = new AtomicBoolean();
        first.warmUp(() -> {
            throw new IllegalStateException("broken");
        });
        first.warmUp(() -> ran.set(true));
        first.answered();
        await().atMost(Duration.ofSeconds(30)).untilTrue(ran);
    }
}
