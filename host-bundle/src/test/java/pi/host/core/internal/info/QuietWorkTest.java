package pi.host.core.internal.info;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class QuietWorkTest {

    /** Pins that quiet work waits for the host's first answer. */
    @Test
    void quietWorkWaitsForTheFirstAnswer() {
        FirstAnswer first = new FirstAnswer(50);
        AtomicBoolean ran = new AtomicBoolean();
        first.whenQuiet(() -> ran.set(true));
        await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(2)).untilFalse(ran);
        first.answered();
        await().atMost(Duration.ofSeconds(30)).untilTrue(ran);
    }

    /** Pins that quiet work waits while a call runs, however long, and runs once it has ended. */
    @Test
    void quietWorkWaitsWhileACallRunsAndRunsOnceItEnded() {
        FirstAnswer first = new FirstAnswer(50);
        AtomicBoolean ran = new AtomicBoolean();
        first.answered();
        first.callStarted();
        first.whenQuiet(() -> ran.set(true));
        // far longer than the pause: quiet work has no bound, a call that needs it does it itself
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).untilFalse(ran);
        first.callEnded();
        await().atMost(Duration.ofSeconds(30)).untilTrue(ran);
    }

    /**
     * Pins that a burst of short calls, each ended long before the pause, holds quiet work back until the
     * burst stops: the work waits for a pause, not for a moment with no call running.
     */
    @Test
    void aBurstOfShortCallsHoldsQuietWorkBackUntilItStops() throws InterruptedException {
        FirstAnswer first = new FirstAnswer(500);
        AtomicBoolean ran = new AtomicBoolean();
        try (CallBurst burst = new CallBurst(first)) {
            first.answered();
            first.whenQuiet(() -> ran.set(true));
            await().during(Duration.ofMillis(2000)).atMost(Duration.ofSeconds(4)).untilFalse(ran);
        }
        await().atMost(Duration.ofSeconds(30)).untilTrue(ran);
    }

    /** Pins that quiet work that fails is its own: the next quiet work still runs. */
    @Test
    void aFailingQuietWorkDoesNotStopTheNext() {
        FirstAnswer first = new FirstAnswer(50);
        AtomicBoolean ran = new AtomicBoolean();
        first.answered();
        first.whenQuiet(() -> {
            throw new IllegalStateException("broken");
        });
        first.whenQuiet(() -> ran.set(true));
        await().atMost(Duration.ofSeconds(30)).untilTrue(ran);
    }

    /**
     * Pins that once the host is stopping no quiet work or warm-up starts: a host told to stop right after its
     * first answer also sees a pause, and work begun then loaded classes from jars the framework was closing.
     */
    @Test
    void nothingStartsOnceTheHostIsStopping() {
        FirstAnswer first = new FirstAnswer(50);
        AtomicBoolean quiet = new AtomicBoolean();
        AtomicBoolean warm = new AtomicBoolean();
        first.answered();
        first.callStarted();
        first.whenQuiet(() -> quiet.set(true));
        first.warmUp(() -> warm.set(true));
        first.hostStopping();
        first.callEnded();
        await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3))
                .until(() -> !quiet.get() && !warm.get());
    }
}
