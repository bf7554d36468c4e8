package pi.host.core.internal.info;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Component;
import pi.host.spi.QuietWork;

/**
 * The moment the host has answered its first request. Work that would compete with that answer for the
 * CPU (starting MCP servers) waits for it, so a host with many servers answers as soon as one with none.
 * Warm-ups (work a call would otherwise do itself, lazily) and quiet work ({@link QuietWork}) also wait for
 * the tool calls to pause ({@link #QUIET_MS} without a call) after it: warm-ups run one after the other on one
 * thread, so on 2 cores the calls of a session's first burst do not share the CPU with work they do not need
 * (docs/performance-log.md, "The login-PATH probe and the warm-ups wait for a pause"); a call that needs the work
 * before the pause does it itself. A model thinks for longer than the pause between its turns, so the work
 * is usually done before the calls that would need it. The exception is the little a session's first call
 * needs itself ({@link #warmUpAtOnce}: first uses, a few ms), which runs right after the first answer.
 * Once the host is stopping nothing more of it starts:
 * a pause is also what a host that is told to stop right after its first answer sees, and work begun then
 * would load classes from bundle jars the framework is closing. The start-up archive's training waits for all of
 * it before it stops ({@link #awaitDone}, {@link HostLifecycle}): the archive holds the classes that work loads.
 */
@Component(service = {FirstAnswer.class, QuietWork.class, ShutdownParticipant.class})
public final class FirstAnswer implements QuietWork, ShutdownParticipant {

    /**
     * How long the tool calls must have paused before a warm-up step or quiet work runs: well below the time a model takes to ask
     * for its next call, well above the gap between the calls of a burst (a turn's parallel calls, a client
     * that sends its next call as soon as an answer arrives).
     */
    static final long QUIET_MS = 200;

    private final long quietNanos;
    /** When the tool calls last came to none running (System.nanoTime), or the first answer. */
    private volatile long lastPause;
    private volatile boolean answered;
    private volatile boolean stopping;
    private final List<Runnable> waiting = new ArrayList<>();
    private final ArrayDeque<Runnable> warmUps = new ArrayDeque<>(); // guarded by waiting
    private boolean warming; // a thread drains warmUps; guarded by waiting
    private final AtomicInteger calls = new AtomicInteger();
    /** Work handed to this object (then, warmUp, warmUpAtOnce, whenQuiet) not yet run or dropped; guarded by waiting. */
    private int unfinished;

    public FirstAnswer() {
        this(QUIET_MS);
    }

    /** For tests: another pause than {@link #QUIET_MS}. */
    FirstAnswer(long quietMs) {
        this.quietNanos = TimeUnit.MILLISECONDS.toNanos(quietMs);
    }

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
            lastPause = System.nanoTime();
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
        Runnable counted = () -> {
            try {
                action.run();
            } finally {
                finished();
            }
        };
        synchronized (waiting) {
            unfinished++;
            if (!answered) {
                waiting.add(counted);
                return;
            }
        }
        start(counted);
    }

    /**
     * Runs the warm-up {@code step} after the first answer, after the steps queued before it, once the tool
     * calls have paused ({@link #QUIET_MS}). A step that has several parts calls {@link #giveWay} between them.
     */
    public void warmUp(Runnable step) {
        synchronized (waiting) {
            unfinished++;
            warmUps.add(step);
            if (!answered || warming) {
                return;
            }
            warming = true;
        }
        start(this::drainWarmUps);
    }

    /**
     * Runs the warm-up {@code step} on a thread of its own right after the first answer, without waiting for
     * a pause: for the little work a session's first call needs itself (the argument check's first use),
     * which that call would otherwise do on its own path. Best effort like every warm-up: a failure is
     * dropped (the call does the work itself), and nothing starts once the host is stopping.
     */
    public void warmUpAtOnce(Runnable step) {
        then(() -> {
            if (stopping) {
                return;
            }
            try {
                step.run();
            } catch (RuntimeException | LinkageError e) {
                // best effort: the call that needs this work does it itself and reports what fails there
            }
        });
    }

    /** A tool call has begun (the pipeline, for every call); cheap: warm-ups read it. */
    public void callStarted() {
        calls.incrementAndGet();
    }

    /** The call begun by {@link #callStarted} has ended (answered). */
    public void callEnded() {
        if (calls.decrementAndGet() == 0) {
            lastPause = System.nanoTime();
        }
    }

    /**
     * Whether no tool call runs and none has for the pause ({@link #QUIET_MS}): for background work that
     * polls instead of queueing here (the database's checkpoints). True before the first answer.
     */
    public boolean paused() {
        return calls.get() == 0 && System.nanoTime() - lastPause >= quietNanos;
    }

    @Override
    public void hostStopping() {
        stopping = true;
    }

    /** Quiet work is a warm-up step: the same queue, thread and pause (it just comes from another bundle). */
    @Override
    public void whenQuiet(Runnable work) {
        warmUp(work);
    }

    /**
     * For warm-ups, before each step and between the parts of one: returns true once no tool call has run for
     * the pause ({@link #QUIET_MS}), false when the step should end (interrupted, or the host is stopping).
     * It naps instead of being told of each call's end: a burst of thousands of calls wakes it a few times, not
     * once a call. Never called by a call: a call never waits for a warm-up's turn.
     */
    public boolean giveWay() {
        while (!stopping) {
            long since = System.nanoTime() - lastPause;
            boolean none = calls.get() == 0;
            if (none && since >= quietNanos) {
                return true;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(none ? quietNanos - since : quietNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
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
            if (!giveWay()) {
                dropQueued(); // stopping: the rest is not needed any more (warming stays set: nothing drains again)
                finished();
                return;
            }
            try {
                step.run();
            } catch (RuntimeException | LinkageError e) {
                // best effort: the call that needs this work does it itself and reports what fails there
            } finally {
                finished();
            }
        }
    }

    /** Forgets the warm-ups not begun (the host is stopping): they count as done for {@link #awaitDone}. */
    private void dropQueued() {
        synchronized (waiting) {
            unfinished -= warmUps.size();
            warmUps.clear();
            if (unfinished == 0) {
                waiting.notifyAll();
            }
        }
    }

    /** One piece of work handed to this object has run (or was dropped). */
    private void finished() {
        synchronized (waiting) {
            if (--unfinished == 0) {
                waiting.notifyAll();
            }
        }
    }

    /**
     * Waits until the work handed to this object so far has run (the actions after the first answer, the warm-ups
     * and quiet work, each after its pause), at most {@code timeoutMs}; true when it has. For the start-up archive's
     * training only ({@link HostLifecycle}): a user's host never waits for it, it drops what has not begun when it
     * stops. Before the first answer nothing of it will run, so it returns false at once. Work handed over while
     * this waits is waited for as well.
     */
    public boolean awaitDone(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (waiting) {
            if (!answered) {
                return unfinished == 0;
            }
            while (unfinished > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(waiting, left);
            }
            return true;
        }
    }

    private static void start(Runnable action) {
        Thread t = new Thread(action, "pi-after-first-answer");
        t.setDaemon(true);
        t.start();
    }
}
