package pi.host.core.internal.info;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The start-up archive's training ends when the host's after-answer work is done ({@link FirstAnswer#awaitDone},
 * {@link HostLifecycle} under {@link HostLifecycle#TRAINING}); a user's host never waits for it.
 */
class TrainingStopTest {

    /** Pins that the wait returns once the queued warm-ups and quiet work ran, and not before. */
    @Test
    void theWaitReturnsOnceTheQueuedStepsRan() throws Exception {
        FirstAnswer first = new FirstAnswer(50);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean second = new AtomicBoolean();
        first.answered();
        first.warmUp(() -> awaitQuietly(release));
        first.whenQuiet(() -> second.set(true));
        CompletableFuture<Boolean> done = CompletableFuture.supplyAsync(() -> awaitDone(first, 30_000));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !done.isDone());
        release.countDown();
        assertThat(done.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(second).as("the step queued behind the first ran before the wait returned").isTrue();
    }

    /** Pins that an action run after the first answer (then, warmUpAtOnce) is waited for too. */
    @Test
    void theActionsAfterTheFirstAnswerAreWaitedFor() throws Exception {
        FirstAnswer first = new FirstAnswer(50);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean atOnce = new AtomicBoolean();
        first.then(() -> awaitQuietly(release));
        first.warmUpAtOnce(() -> atOnce.set(true));
        first.answered();
        CompletableFuture<Boolean> done = CompletableFuture.supplyAsync(() -> awaitDone(first, 30_000));
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !done.isDone());
        release.countDown();
        assertThat(done.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(atOnce).isTrue();
    }

    /** Pins that the wait honours its bound: a step that does not end leaves it false after the bound, not later. */
    @Test
    void theWaitHonoursItsBound() {
        FirstAnswer first = new FirstAnswer(50);
        CountDownLatch release = new CountDownLatch(1);
        try {
            first.answered();
            first.warmUp(() -> awaitQuietly(release));
            long began = System.nanoTime();
            assertThat(awaitDone(first, 400)).isFalse();
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            assertThat(ms).isBetween(400L, 10_000L);
        } finally {
            release.countDown();
        }
    }

    /** Pins that before the first answer nothing queued will run, so the wait does not wait for it. */
    @Test
    void beforeTheFirstAnswerTheWaitReturnsAtOnce() {
        FirstAnswer first = new FirstAnswer(50);
        first.warmUp(() -> { });
        long began = System.nanoTime();
        assertThat(awaitDone(first, 10_000)).isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(5_000);
        assertThat(awaitDone(new FirstAnswer(50), 10_000)).as("nothing queued: done").isTrue();
    }

    /** Pins that warm-ups dropped because the host stops count as done: a stopped host does not hold the wait. */
    @Test
    void droppedWarmUpsCountAsDone() {
        FirstAnswer first = new FirstAnswer(50);
        AtomicBoolean ran = new AtomicBoolean();
        first.answered();
        first.callStarted();
        first.warmUp(() -> ran.set(true));
        first.warmUp(() -> ran.set(true));
        first.hostStopping();
        first.callEnded();
        assertThat(awaitDone(first, 30_000)).isTrue();
        assertThat(ran).isFalse();
    }

    /** Pins that a training host tells the participants it stops only once its after-answer work has run. */
    @Test
    void aTrainingHostStopsAfterItsAfterAnswerWork() throws Exception {
        FirstAnswer first = new FirstAnswer(50);
        HostLifecycle lifecycle = new HostLifecycle(null, first, true);
        List<String> order = new CopyOnWriteArrayList<>();
        lifecycle.addParticipant(() -> order.add("told"));
        CountDownLatch release = new CountDownLatch(1);
        first.answered();
        first.warmUp(() -> {
            awaitQuietly(release);
            order.add("warm-up");
        });
        CompletableFuture<Void> announced = CompletableFuture.runAsync(lifecycle::announceStopping);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !announced.isDone());
        assertThat(order).isEmpty();
        release.countDown();
        announced.get(30, TimeUnit.SECONDS);
        assertThat(order).containsExactly("warm-up", "told");
    }

    /** Pins that a host that is not training does not wait at its stop: its warm-ups are dropped, not waited for. */
    @Test
    void aHostThatIsNotTrainingDoesNotWait() throws Exception {
        FirstAnswer first = new FirstAnswer(50);
        HostLifecycle lifecycle = new HostLifecycle(null, first, false);
        List<String> order = new CopyOnWriteArrayList<>();
        lifecycle.addParticipant(() -> order.add("told"));
        lifecycle.addParticipant(first);
        first.answered();
        first.callStarted(); // a call runs: the warm-up waits for its pause
        first.warmUp(() -> order.add("warm-up"));
        CompletableFuture.runAsync(lifecycle::announceStopping).get(5, TimeUnit.SECONDS);
        assertThat(order).containsExactly("told");
        first.callEnded();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !order.contains("warm-up"));
    }

    private static boolean awaitDone(FirstAnswer first, long ms) {
        try {
            return first.awaitDone(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
