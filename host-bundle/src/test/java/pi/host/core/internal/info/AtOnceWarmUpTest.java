package pi.host.core.internal.info;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When the at-once warm-ups (FirstAnswer#warmUpAtOnce) start: the first answer, or a request waiting for the start. */
class AtOnceWarmUpTest {

    /** Pins that a request waiting for the host's start starts them before any answer, and only them. */
    @Test
    void aRequestWaitingForTheStartStartsTheAtOnceWarmUpsBeforeAnyAnswer() {
        FirstAnswer first = new FirstAnswer();
        AtomicInteger atOnce = new AtomicInteger();
        AtomicBoolean afterAnswer = new AtomicBoolean();
        AtomicBoolean afterPause = new AtomicBoolean();
        first.warmUpAtOnce(atOnce::incrementAndGet);
        first.then(() -> afterAnswer.set(true));
        first.warmUp(() -> afterPause.set(true));
        first.requestWaits();
        await().atMost(Duration.ofSeconds(30)).until(() -> atOnce.get() == 1);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofMillis(900))
                .until(() -> !afterAnswer.get() && !afterPause.get());

        first.requestWaits(); // a second waiting request
        first.answered();
        await().atMost(Duration.ofSeconds(30)).untilTrue(afterAnswer);
        await().atMost(Duration.ofSeconds(30)).untilTrue(afterPause);
        assertThat(atOnce).as("each runs once").hasValue(1);
    }

    /** Without a waiting request they start at the first answer, as before; one queued later starts at once. */
    @Test
    void withoutAWaitingRequestTheyStartAtTheFirstAnswer() {
        FirstAnswer first = new FirstAnswer();
        AtomicInteger atOnce = new AtomicInteger();
        first.warmUpAtOnce(atOnce::incrementAndGet);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofMillis(900)).until(() -> atOnce.get() == 0);
        first.answered();
        await().atMost(Duration.ofSeconds(30)).until(() -> atOnce.get() == 1);
        first.warmUpAtOnce(atOnce::incrementAndGet);
        await().atMost(Duration.ofSeconds(30)).until(() -> atOnce.get() == 2);
    }

    /** A host stopping before the warm-ups' turn runs none of them. */
    @Test
    void nothingRunsOnceTheHostIsStopping() {
        FirstAnswer first = new FirstAnswer();
        AtomicInteger atOnce = new AtomicInteger();
        first.warmUpAtOnce(atOnce::incrementAndGet);
        first.hostStopping();
        first.requestWaits();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofMillis(900)).until(() -> atOnce.get() == 0);
    }
}
