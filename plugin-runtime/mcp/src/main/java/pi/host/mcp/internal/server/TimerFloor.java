package pi.host.mcp.internal.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Keeps the timer threads of Reactor's {@code parallel} scheduler asleep while the SDK arms its
 * per-request timeouts. The SDK client puts a {@code Mono.timeout} (a timer task on that scheduler) on
 * every request, two per {@code tools/call}; a JDK scheduled executor wakes its thread whenever a new task
 * becomes the head of its queue, and a call's timers (tens of seconds ahead) always did, since the last
 * call's were cancelled: about two thread wake-ups per bridged call. A no-op every second on each of the
 * scheduler's threads is always due before any such timeout, so arming one wakes nothing; the floor
 * costs one wake-up per thread and second. Timeouts under a second (none the bridge asks for) would
 * still wake their thread, and behave as before.
 */
public final class TimerFloor implements AutoCloseable {

    static final long PERIOD_MS = 1_000;

    private final List<Scheduler.Worker> workers = new ArrayList<>();

    /**
     * One worker per thread of the scheduler: the scheduler hands its threads to new workers in turn,
     * so {@code size} workers made one after the other cover them (one made at the same time elsewhere
     * may leave a thread uncovered, which then wakes as before).
     */
    public static TimerFloor start() {
        return new TimerFloor(Schedulers.parallel(), Schedulers.DEFAULT_POOL_SIZE);
    }

    TimerFloor(Scheduler scheduler, int size) {
        for (int i = 0; i < size; i++) {
            Scheduler.Worker w = scheduler.createWorker();
            workers.add(w);
            w.schedulePeriodically(() -> { }, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        workers.forEach(Scheduler.Worker::dispose);
    }
}
