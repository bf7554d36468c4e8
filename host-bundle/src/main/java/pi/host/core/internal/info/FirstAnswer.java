package pi.host.core.internal.info;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Component;

/**
 * The moment the host has answered its first request. Work that would compete with that answer for the
 * CPU (starting MCP servers) waits for it, so a host with many servers answers as soon as one with none.
 * Warm-ups (work a call would otherwise do itself, lazily) also give way to tool calls after it: they run
 * one after the other on one thread, each step only while no call runs, so on 2 cores the session's first
 * call does not share them with a warm-up of work it does not need (docs/performance.md, branch grep4).
 */
@Component(service = FirstAnswer.class)
public final class FirstAnswer {

    /**
     * Longest a warm-up step waits for calls to end: a session whose calls overlap without a pause still
     * gets its warm-ups done (a call that needs the work does it itself meanwhile).
     */
    static final long GIVE_WAY_MS = 1000;

    private volatile boolean answered;
    private final List<Runnable> waiting = new ArrayList<>();
    private final ArrayDeque<Runnable> warmUps = new ArrayDeque<>(); // guarded by waiting
    private boolean warming; // a thread drains warmUps; guarded by waiting
    private final AtomicInteger calls = new AtomicInteger();
    private final Object idle = new Object();

    /** Called by the RPC layer after it wrote an answer; cheap once the first one was seen. */
    public void answered() {
        if (answered) {
            return;
        }
        List<Runnable> run;
        synchronized (waiting) {
            if (answered) {
                return;
            }
            answered = true;
            run = new ArrayList<>(waiting);
            waiting.clear();
            if (!warmUps.isEmpty()) {
                warming = true;
                run.add(this::drainWarmUps);
            }
        }
        run.forEach(FirstAnswer::start);
    }

    /** Runs {@code action} once on a thread of its own after the first answer (soon, if it came already). */
    public void then(Runnable action) {
        synchronized (waiting) {
            if (!answered) {
                waiting.add(action);
                return;
            }
        }
        start(action);
    }

    /**
     * Runs the warm-up {@code step} after the first answer, after the steps queued before it, once no tool
     * call runs (at most {@link #GIVE_WAY_MS} later). A step that has several parts calls
     * {@link #giveWay} between them.
     */
    public void warmUp(Runnable step) {
        synchronized (waiting) {
            warmUps.add(step);
            if (!answered || warming) {
                return;
            }
            warming = true;
        }
        start(this::drainWarmUps);
    }

    /** A tool call has begun (the pipeline, for every call); cheap: warm-ups read it. */
    public void callStarted() {
        calls.incrementAndGet();
    }

    /** The call begun by {@link #callStarted} has ended (answered). */
    public void callEnded() {
        if (calls.decrementAndGet() == 0) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }

    /**
     * For warm-ups: returns when no tool call runs, or after {@link #GIVE_WAY_MS} when calls keep
     * running. Never called by a call: a call never waits for a warm-up's turn.
     */
    public void giveWay() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GIVE_WAY_MS);
        synchronized (idle) {
            while (calls.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(idle, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void drainWarmUps() {
        while (true) {
            Runnable step;
            synchronized (waiting) {
                step = warmUps.poll();
                if (step == null) {
                    warming = false;
                    return;
                }
            }
            giveWay();
            try {
                step.run();
            } catch (RuntimeException | LinkageError e) {
                // best effort: the call that needs this work does it itself and reports what fails there
            }
        }
    }

    private static void start(Runnable action) {
        Thread t = new Thread(action, "pi-after-first-answer");
        t.setDaemon(true);
        t.start();
    }
}
