package pi.host.core.internal.execute;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Component;
import pi.host.core.internal.session.SessionListener;

/**
 * Admits a call to run: a mutating call first takes its session's single mutation permit (so one
 * session's writes and commands run one at a time), then every call takes one of the global slots,
 * then the path lock (shared for reads, exclusive for writes). Waiting is interruptible, so an
 * abort cancels a queued call instead of letting it start later.
 */
@Component(service = AdmissionQueue.class)
public final class AdmissionQueue implements SessionListener {

    /** Calls that may run at once, host-wide. */
    public static final int GLOBAL_SLOTS = 32;


    private final Semaphore global;
    private final ConcurrentHashMap<String, Semaphore> sessionPermits = new ConcurrentHashMap<>();
    private final PathMutex paths = new PathMutex();

    public AdmissionQueue() {
        this(GLOBAL_SLOTS);
    }

    public AdmissionQueue(int globalSlots) {
        this.global = new Semaphore(globalSlots, true);
    }

    /** What an admitted call holds; closing releases everything in reverse order. */
    public interface Ticket extends AutoCloseable {
        @Override
        void close();

        /** True when the call had to wait for something another call held. */
        default boolean waited() {
            return false;
        }
    }

    /**
     * Waits for admission: the session's mutation permit when {@code mutates}, a global slot, then the
     * locks of {@code paths} (empty: none). Every wait honours the queues' fairness; the ticket says
     * whether the call waited at all (the pipeline then judges it again).
     *
     * @throws InterruptedException when the waiting thread is interrupted (the call was cancelled)
     */
    public Ticket admit(String sessionId, boolean mutates, List<PathMutex.Lock> paths) throws InterruptedException {
        Deque<AutoCloseable> held = new ArrayDeque<>();
        boolean waited = false;
        try {
            if (mutates) {
                Semaphore permit = sessionPermits.computeIfAbsent(sessionId, s -> new Semaphore(1, true));
                waited |= acquire(permit);
                held.push(permit::release);
            }
            waited |= acquire(global);
            held.push(global::release);
            if (!paths.isEmpty()) {
                PathMutex.Held locks = this.paths.lockAll(paths);
                waited |= locks.waited();
                held.push(locks);
            }
        } catch (InterruptedException e) {
            releaseAll(held);
            throw e;
        }
        boolean didWait = waited;
        return new Ticket() {
            @Override
            public void close() {
                releaseAll(held);
            }

            @Override
            public boolean waited() {
                return didWait;
            }
        };
    }

    /** Takes a permit, fairly; true when it had to wait for one. */
    private static boolean acquire(Semaphore s) throws InterruptedException {
        // tryAcquire with a timeout honours fairness (the plain tryAcquire would jump the queue)
        if (s.tryAcquire(0, TimeUnit.SECONDS)) {
            return false;
        }
        s.acquire();
        return true;
    }

    /** Forgets a deleted session's permit. */
    @Override
    public void sessionDeleted(String sessionId) {
        sessionPermits.remove(sessionId);
    }

    private static void releaseAll(Deque<AutoCloseable> held) {
        while (!held.isEmpty()) {
            try {
                held.pop().close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
