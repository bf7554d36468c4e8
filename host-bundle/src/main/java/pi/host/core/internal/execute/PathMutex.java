package pi.host.core.internal.execute;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps a read of a path from overlapping a write of the same path (spec §0): reads share, writes
 * are exclusive. A call locks every path it declared. Locks exist only while someone holds or waits
 * for them.
 */
public final class PathMutex {

    private static final class Entry {
        final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
        int users;
    }

    private final ConcurrentHashMap<Path, Entry> locks = new ConcurrentHashMap<>();

    /** A location to lock, shared or exclusive. */
    public record Lock(Path path, boolean exclusive) {
    }

    /** A held lock; closing releases it. */
    public interface Held extends AutoCloseable {
        @Override
        void close();

        /** True when taking it had to wait for another holder. */
        default boolean waited() {
            return false;
        }
    }

    /** Locks {@code path} shared or exclusive; interruptible (that is how an abort reaches a queued call). */
    public Held lock(Path path, boolean exclusive) throws InterruptedException {
        Entry e = locks.compute(path, (p, existing) -> {
            Entry entry = existing == null ? new Entry() : existing;
            entry.users++;
            return entry;
        });
        java.util.concurrent.locks.Lock l = exclusive ? e.lock.writeLock() : e.lock.readLock();
        boolean waited;
        try {
            // tryLock with a timeout honours the lock's fairness (the plain tryLock would barge)
            waited = !l.tryLock(0, TimeUnit.SECONDS);
            if (waited) {
                l.lockInterruptibly();
            }
        } catch (InterruptedException ie) {
            release(path, e);
            throw ie;
        }
        return new Held() {
            @Override
            public void close() {
                l.unlock();
                release(path, e);
            }

            @Override
            public boolean waited() {
                return waited;
            }
        };
    }

    /**
     * Locks every location in one global order (by path), so two calls that lock the same locations in
     * different declaration orders cannot wait on each other; interruptible, releasing what it got.
     */
    public Held lockAll(List<Lock> wanted) throws InterruptedException {
        if (wanted.size() == 1) {
            return lock(wanted.get(0).path(), wanted.get(0).exclusive());
        }
        List<Lock> ordered = new ArrayList<>(wanted);
        ordered.sort((a, b) -> a.path().compareTo(b.path()));
        Deque<Held> held = new ArrayDeque<>(ordered.size());
        boolean waited = false;
        try {
            for (Lock l : ordered) {
                Held h = lock(l.path(), l.exclusive());
                waited |= h.waited();
                held.push(h);
            }
        } catch (InterruptedException e) {
            held.forEach(Held::close);
            throw e;
        }
        boolean didWait = waited;
        return new Held() {
            @Override
            public void close() {
                while (!held.isEmpty()) {
                    held.pop().close();
                }
            }

            @Override
            public boolean waited() {
                return didWait;
            }
        };
    }

    private void release(Path path, Entry e) {
        locks.computeIfPresent(path, (p, entry) -> --entry.users == 0 ? null : entry);
    }

    /** Paths with a holder or waiter (for tests). */
    int size() {
        return locks.size();
    }
}
