package pi.host.mcp.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/** The bridge's per-server timers exist only once a server is configured (an idle host without one has none). */
class ServerTimersTest {

    private static final String FLOOR = "server-timers-test-floor";

    private final ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1,
            r -> new Thread(r, "server-timers-test-health"));
    private final Scheduler scheduler = Schedulers.newParallel(FLOOR, 2);
    private final AtomicInteger floors = new AtomicInteger();
    private final AtomicInteger checks = new AtomicInteger();
    private final ServerTimers serverTimers = new ServerTimers(timers, () -> {
        floors.incrementAndGet();
        return new TimerFloor(scheduler, 2);
    }, checks::incrementAndGet);

    @AfterEach
    void stop() {
        serverTimers.close();
        timers.shutdownNow();
        scheduler.dispose();
    }

    private static long floorThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(FLOOR)).count();
    }

    @Test
    void noTimerThreadExistsWhileNoServerIsConfigured() {
        assertThat(serverTimers.started()).isFalse();
        assertThat(timers.getPoolSize()).as("the health check's thread").isZero();
        assertThat(floorThreads()).as("the floor's threads").isZero();
        assertThat(floors).hasValue(0);
    }

    @Test
    void theFirstConfiguredServerStartsTheHealthCheckAndTheFloorOnce() {
        serverTimers.serverConfigured();
        serverTimers.serverConfigured(); // a second server, or a reload: nothing more
        assertThat(serverTimers.started()).isTrue();
        assertThat(floors).hasValue(1);
        assertThat(timers.getQueue()).as("one health check scheduled").hasSize(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() >= 2);
        assertThat(timers.getPoolSize()).isEqualTo(1);
        assertThat(floorThreads()).isEqualTo(2);
    }

    @Test
    void nothingStartsOnceClosed() {
        serverTimers.close();
        serverTimers.serverConfigured();
        assertThat(serverTimers.started()).isFalse();
        assertThat(floors).hasValue(0);
        assertThat(timers.getQueue()).isEmpty();
    }
}
