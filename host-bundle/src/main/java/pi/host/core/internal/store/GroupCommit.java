package pi.host.core.internal.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Group commit: one writer thread takes every item queued so far, in arrival order, and writes them
 * in one transaction; items that arrive meanwhile form the next group. Each caller returns only once
 * its own item is written (durable, when the writer commits), or throws the failure of the group its
 * item was in: then no item of that group was written. Closing writes what is queued and refuses the
 * rest.
 *
 * <p>A writer thread rather than the first caller writing for the others: measured both ways on the
 * pipeline benchmark (docs/performance.md), the thread was faster and cheaper per call even for a
 * single caller, the SQLite work staying on one thread while the calls go on on the others.
 *
 * @param <T> what is appended
 */
public final class GroupCommit<T> implements AutoCloseable {

    /** Writes one group, all or nothing (one transaction). */
    @FunctionalInterface
    public interface Writer<T> {
        void write(List<T> items) throws StorageException;
    }

    private record Pending<T>(T item, CompletableFuture<Void> written) {
    }

    private final Writer<T> writer;
    private final ArrayDeque<Pending<T>> queue = new ArrayDeque<>();
    private final Thread thread;
    private boolean closed;

    public GroupCommit(String threadName, Writer<T> writer) {
        this.writer = writer;
        this.thread = new Thread(this::writeLoop, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Appends {@code item} and returns once it is written.
     *
     * @throws StorageException when the group holding the item could not be written (none of it
     *         was), or after {@link #close()}
     */
    public void append(T item) throws StorageException {
        Pending<T> mine = new Pending<>(item, new CompletableFuture<>());
        synchronized (this) {
            if (closed) {
                throw new StorageException("the store is closed: the host is shutting down");
            }
            queue.add(mine);
            if (queue.size() == 1) {
                notifyAll(); // the writer waits only on an empty queue
            }
        }
        try {
            // not interruptible: the item may already be in a group being written, and its caller must
            // learn the outcome (an interrupt stays set for the caller)
            mine.written().join();
        } catch (CompletionException e) {
            throw (StorageException) e.getCause();
        }
    }

    private void writeLoop() {
        while (true) {
            List<Pending<T>> group;
            synchronized (this) {
                while (queue.isEmpty()) {
                    if (closed) {
                        notifyAll(); // close() waits for the queue to drain
                        return;
                    }
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        // only close() ends the writer: queued callers wait for it
                    }
                }
                group = new ArrayList<>(queue);
                queue.clear();
            }
            StorageException failure = null;
            try {
                List<T> items = new ArrayList<>(group.size());
                for (Pending<T> p : group) {
                    items.add(p.item());
                }
                writer.write(items);
            } catch (StorageException e) {
                failure = e;
            } catch (RuntimeException | Error e) {
                failure = new StorageException("storage write failed: " + e, e);
            }
            for (Pending<T> p : group) {
                if (failure == null) {
                    p.written().complete(null);
                } else {
                    p.written().completeExceptionally(failure);
                }
            }
        }
    }

    /** Items waiting for the writer (tests). */
    synchronized int queued() {
        return queue.size();
    }

    /** Refuses new items and returns once every item already queued has been written (or failed). */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
