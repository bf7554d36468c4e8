package pi.host.mcp.internal.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/** The SDK's per-request timeouts, armed and cancelled as on every bridged call, and the timer threads' sleep. */
class TimerFloorTest {

    private static final int CALLS = 5_000;
    private static final String NAME = "floor-test";

    private final Scheduler scheduler = Schedulers.newParallel(NAME, 2);

    /** Both threads run before anything is counted (the executor starts its thread on its first task). */
    @BeforeEach
    void startThreads() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            Scheduler.Worker w = scheduler.createWorker();
            w.schedule(() -> {
                started.countDown();
                w.dispose();
            });
        }
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @AfterEach
    void dispose() {
        scheduler.dispose();
    }

    /** Pins the per-call timer wake-up: with the floor, arming and cancelling a call's two timeouts wakes no timer thread. */
    @Test
    void aCallsTimeoutsWakeNoTimerThread() throws IOException {
        long start = System.nanoTime();
        try (TimerFloor floor = new TimerFloor(scheduler, 2)) {
            long woken = wakeUps(this::calls);
            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds() + 1;
            // the floor's own tick: one per thread and second
            assertThat(woken).isLessThanOrEqualTo(2 * (seconds + 1));
        }
    }

    /** Without the floor the same calls do wake the timer threads: the test above can fail. */
    @Test
    void withoutTheFloorTheTimeoutsWakeTheTimerThreads() throws IOException {
        assertThat(wakeUps(this::calls)).isGreaterThan(CALLS / 100);
    }

    /** The SDK's two timeouts of one call (initialization, request), ended by the answer before they are due. */
    private void calls() {
        for (int i = 0; i < CALLS; i++) {
            Disposable request = Mono.never().timeout(Duration.ofSeconds(70), scheduler).subscribe(v -> { }, e -> { });
            Disposable init = Mono.never().timeout(Duration.ofSeconds(60), scheduler).subscribe(v -> { }, e -> { });
            init.dispose();
            request.dispose();
        }
    }

    /** Voluntary context switches of the scheduler's threads while {@code work} runs. */
    private static long wakeUps(Runnable work) throws IOException {
        long before = switches();
        work.run();
        return switches() - before;
    }

    private static long switches() throws IOException {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                String comm;
                try {
                    comm = Files.readString(t.resolve("comm")).trim();
                } catch (IOException gone) {
                    continue;
                }
                if (!comm.startsWith(NAME)) {
                    continue;
                }
                for (String line : Files.readAllLines(t.resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            }
        }
        return sum;
    }
}
