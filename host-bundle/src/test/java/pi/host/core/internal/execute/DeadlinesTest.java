package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlinesTest {

    private final Deadlines deadlines = new Deadlines("test-deadlines");
    private final List<String> fired = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        deadlines.close();
    }

    @Test
    void actionsRunInDeadlineOrderAndAnEarlierDeadlineWakesTheThread() {
        deadlines.arm(TimeUnit.SECONDS.toNanos(30), () -> fired.add("late")); // the thread now sleeps until this one
        long armed = System.nanoTime();
        deadlines.arm(TimeUnit.MILLISECONDS.toNanos(300), () -> fired.add("second"));
        deadlines.arm(TimeUnit.MILLISECONDS.toNanos(100), () -> fired.add("first"));

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 2);
        assertThat(Duration.ofNanos(System.nanoTime() - armed)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(fired).containsExactly("first", "second");
    }

    @Test
    void aDisarmedDeadlineNeverRuns() {
        Deadlines.Deadline d = deadlines.arm(TimeUnit.MILLISECONDS.toNanos(100), () -> fired.add("disarmed"));
        deadlines.arm(TimeUnit.MILLISECONDS.toNanos(300), () -> fired.add("kept"));
        d.disarm();

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> fired.contains("kept"));
        assertThat(fired).containsExactly("kept");
    }
}
