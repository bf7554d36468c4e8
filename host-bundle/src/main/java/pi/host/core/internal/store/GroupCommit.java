package pi.host.core.internal.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Group commit: items appended at the same time by several callers are written in one
 * transaction. The first caller that finds no write in progress becomes the writer and takes every
 * item queued so far, in arrival order; the callers that arrive meanwhile wait, and when that write
 * ends one of them writes the next group. Each caller returns only once its own item is written
 * (durable, when the writer commits), or throws the failure of the group its item was in: then no
 * item of that group was written.
 *
 * <p>There is no writer thread of its own: an append that meets no other one writes on its own
 * thread, with no hand-off. Profiles of the pipeline put thread wake-ups among its largest costs on
 * two cores, and a dedicated writer would add two per call (there and back) to save part of a
 * transaction only when calls overlap.
 *
 * @param <T> what is appended
 */
public final class GroupCommit<T> implements AutoCloseable {

    /** Writes one group, all or nothing (one transaction). */
    @FunctionalInterface
    public interface Writer<T> {
        void write(List<T> items) throws StorageException;
    }

    private static final class Pending<T> {
        final T item;
        boolean done;
        StorageException failure;

        Pending(T item) {
            this.item = item;
        }
    }

    private final Writer<T> writer;
    private final ArrayDeque<Pending<T>> queue = new ArrayDeque<>();
    private boolean writing;
    private boolean closed;

    public GroupCommit(Writer<T> writer) {
        this.writer = writer;
    }

    /**
     * Appends {@code item} and returns once it is written.
     *
     * @throws StorageException when the group holding the item could not be written (none of it
     *         was), or after {@link #close()}
     */
    public void append(T item) throws StorageException {
        Pending<T> mine = new Pending<>(item);
        List<Pending<T>> group;
        synchronized (this) {
            if (closed) {
                throw new StorageException("the store is closed: the host is shutting down");
            }
            queue.add(mine);
            boolean interrupted = false;
            while (writing && !mine.done) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    // the item is queued and may already be in a group being written: its caller has to
                    // learn the outcome, so it keeps waiting and passes the interrupt on afterwards
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (mine.done) {
                if (mine.failure != null) {
                    throw mine.failure;
                }
                return;
            }
            writing = true;
            group = new ArrayList<>(queue);
            queue.clear();
        }
        StorageException failure = null;
        try {
            List<T> items = new ArrayList<>(group.size());
            for (Pending<T> p : group) {
                items.add(p.item);
            }
            writer.write(items);
        } catch (StorageException e) {
            failure = e;
        } catch (RuntimeException | Error e) {
            failure = new StorageException("storage write failed: " + e, e);
        } finally {
            synchronized (this) {
                for (Pending<T> p : group) {
                    p.done = true;
                    p.failure = failure;
                }
                writing = false;
                notifyAll();
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Items waiting for a writer (tests). */
    synchronized int queued() {
        return queue.size();
    }

    /** Refuses new items and returns once every item already queued has been written (or failed). */
    @Override
    public void close() {
        boolean interrupted = false;
        synchronized (this) {
            closed = true;
            while (writing || !queue.isEmpty()) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
