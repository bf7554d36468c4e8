package pi.host.mcp.internal.server;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The timers only configured servers need: their health check every second and the {@link TimerFloor}
 * that keeps the SDK's request timeouts from waking a thread per call. They start when the first server
 * is configured, not when the bridge starts: with no MCP server (most hosts) they were three threads
 * (the floor's two, the health check's one) each waking every second for nothing, and each thread costs
 * the idle host its stack and C heap (docs/performance-log.md, "branch idle3"). Once started they stay until
 * {@link #close()}: a server removed and added again finds them running.
 */
public final class ServerTimers implements AutoCloseable {

    static final long HEALTH_PERIOD_MS = 1_000;

    private final ScheduledExecutorService timers;
    private final Supplier<TimerFloor> floors;
    private final Runnable healthCheck;
    /** Guarded by this. */
    private TimerFloor floor;
    private boolean closed;

    /**
     * @param timers runs the health check (its thread starts with its first task)
     * @param floors makes the floor (its scheduler's threads start with it)
     */
    public ServerTimers(ScheduledExecutorService timers, Supplier<TimerFloor> floors, Runnable healthCheck) {
        this.timers = timers;
        this.floors = floors;
        this.healthCheck = healthCheck;
    }

    /** A server is configured: starts the timers unless they run or this was closed. */
    public synchronized void serverConfigured() {
        if (closed || floor != null) {
            return;
        }
        floor = floors.get();
        timers.scheduleWithFixedDelay(healthCheck, HEALTH_PERIOD_MS, HEALTH_PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Whether the timers were started. */
    public synchronized boolean started() {
        return floor != null;
    }

    /** Stops the floor (the executor is its owner's to shut down); nothing starts after this. */
    @Override
    public void close() {
        TimerFloor f;
        synchronized (this) {
            closed = true;
            f = floor;
        }
        if (f != null) {
            f.close();
        }
    }
}
