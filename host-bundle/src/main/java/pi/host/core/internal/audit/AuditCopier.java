package pi.host.core.internal.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import pi.host.core.internal.store.AuditRecord;
import pi.host.core.internal.store.AuditStore;
import pi.host.core.internal.store.StorageException;

/**
 * Moves audit rows from the journal into SQLite on a thread of its own, many rows per transaction,
 * each transaction also recording how far into each segment it got (so a segment read back after
 * a crash skips what is already there). First it reads back the segments an earlier run left.
 * A failed write is retried, with growing pauses, until it succeeds or the host stops; the rows
 * stay in the journal meanwhile, and the host refuses calls once too many wait ({@link AuditLog}).
 */
final class AuditCopier {

    /** Rows per transaction at most. */
    static final int BATCH = 512;
    /** A copier woken from idle for fewer rows than a batch waits this long for more (one transaction for many calls). */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * The wait instead while rows keep coming (some arrived during the last linger and copy): warm Reads back
     * to back (~0.2 ms each) made a transaction per ~6 rows with the 1 ms wait, and each transaction's WAL
     * writes woke the JDK's watch thread and {@code pi-mcp-config} (they watch the data dir for mcp.json)
     * ~0.4 times per call each: the copier and those two threads took 50-75 µs of CPU and ~1 wake-up per
     * call beside the call thread's ~110 µs, on a VM where a wake-up costs 3-4x; with 10 ms 20-25 µs and
     * ~0.2. A copier woken from idle keeps the short wait, so a lone call's row (or the first calls', one
     * between a client's other work) is copied in the pause after it, as before (10 ms from idle too read
     * no better over the first 200 Reads, Java 17 worse in 3 of 4 pairs; docs/performance-log.md, branch
     * {@code warm15}). The rows are durable in the journal before the call answers either way; a query or a
     * stop unparks the copier, so neither waits for a linger.
     */
    private static final long STREAM_LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long LONGEST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Attempts left for a failing write once the host is stopping: the rows stay in the journal. */
    private static final int ATTEMPTS_WHEN_STOPPING = 3;
    private static final System.Logger LOG = System.getLogger(AuditCopier.class.getName());

    private final AuditJournal journal;
    private final AuditStore store;
    private final Thread thread;
    private volatile boolean idle;
    private volatile boolean stopping;
    /** The last write's failure; null once a write succeeded. */
    private volatile StorageException failure;
    private final Object progress = new Object();
    /** Rows of this run in the database (written under progress; volatile for the readers that do not wait). */
    private volatile long copied;

    AuditCopier(AuditJournal journal, AuditStore store) {
        this.journal = journal;
        this.store = store;
        this.thread = new Thread(this::run, "pi-audit-copier");
        thread.setDaemon(true);
        thread.start();
    }

    /** Called after each append: wakes the copier if it waits for rows. */
    void wake() {
        // the append queued its row before reading `idle`, and the copier sets `idle` before it looks
        // at the queue a last time: one of the two sees the other
        if (idle) {
            LockSupport.unpark(thread);
        }
    }

    /** The last write's failure while it lasts, else null. */
    StorageException failure() {
        return failure;
    }

    /** Waits until {@code rows} rows of this run are in the database; false if that took longer than {@code millis}. */
    boolean awaitCopied(long rows, long millis) throws InterruptedException {
        if (copied < rows) {
            LockSupport.unpark(thread); // someone waits: no lingering for more rows
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (progress) {
            while (copied < rows) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                progress.wait(left);
            }
            return true;
        }
    }

    /** Rows of this run in the database. */
    long copied() {
        return copied;
    }

    private void run() {
        if (!recoverEarlierRuns()) {
            return; // stopping, and the database still fails: the segments stay
        }
        boolean streaming = false; // rows came while the copier lingered and copied: no idle since
        while (true) {
            if (journal.backlog() == 0) {
                if (stopping) {
                    return;
                }
                streaming = false;
                idle = true;
                if (journal.backlog() == 0 && !stopping) {
                    LockSupport.park(this);
                }
                idle = false;
                continue;
            }
            if (journal.backlog() < BATCH && !stopping) {
                LockSupport.parkNanos(this, streaming ? STREAM_LINGER_NANOS : LINGER_NANOS);
            }
            streaming = true;
            List<AuditJournal.Entry> batch = journal.take(BATCH);
            if (batch.isEmpty()) {
                Thread.onSpinWait(); // counted, and about to be queued by its appender
                continue;
            }
            if (!copyWithRetries(batch)) {
                return; // stopping, and the database still fails: the rows stay in the journal
            }
        }
    }

    /** Writes {@code batch} to the database, retrying failures; false when the host stopped first. */
    private boolean copyWithRetries(List<AuditJournal.Entry> batch) {
        List<AuditRecord> rows = new ArrayList<>(batch.size());
        Map<String, Integer> reached = new LinkedHashMap<>();
        for (AuditJournal.Entry e : batch) {
            rows.add(e.row());
            reached.put(e.segment(), e.index() + 1);
        }
        if (!write(rows, reached)) {
            return false;
        }
        synchronized (progress) {
            copied += rows.size();
            progress.notifyAll();
        }
        List<String> deleted = journal.copied(batch.get(batch.size() - 1));
        if (!deleted.isEmpty()) {
            write(() -> store.forgetSegments(deleted));
        }
        return true;
    }

    private boolean write(List<AuditRecord> rows, Map<String, Integer> reached) {
        return write(() -> store.copy(rows, reached));
    }

    /** Runs {@code work} until it succeeds; false if the host stops while it still fails. */
    private boolean write(StoreWork work) {
        long pause = FIRST_PAUSE_NANOS;
        int attemptsWhenStopping = ATTEMPTS_WHEN_STOPPING;
        while (true) {
            try {
                work.run();
                if (failure != null) {
                    LOG.log(System.Logger.Level.INFO, "the audit database accepts rows again");
                    failure = null;
                }
                return true;
            } catch (StorageException | RuntimeException e) {
                if (failure == null) {
                    LOG.log(System.Logger.Level.WARNING, "audit rows cannot be copied to the database;"
                            + " they stay in the journal and the copy is retried", e);
                }
                failure = e instanceof StorageException ? (StorageException) e
                        : new StorageException("audit copy failed: " + e, e);
                if (stopping && --attemptsWhenStopping <= 0) {
                    return false;
                }
                LockSupport.parkNanos(this, pause);
                pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
            }
        }
    }

    /**
     * Reads back the segments earlier runs left (a crash, or a database that failed at shutdown)
     * and copies the rows the database does not have yet, before any row of this run.
     */
    private boolean recoverEarlierRuns() {
        for (Path segment : journal.earlier()) {
            try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE);
                    FileLock claim = claim(channel)) {
                if (claim == null) {
                    continue; // another host on this data dir is still writing it
                }
                if (!recover(segment)) {
                    return false;
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.ERROR, "audit journal segment " + segment + " cannot be copied now;"
                        + " it is kept and read back at the next start", e);
            }
        }
        return true;
    }

    /** The segment's lock, or null while a live journal (of this or another process) holds it. */
    private static FileLock claim(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    /** Copies the rows of one earlier segment the database does not have, then deletes it; false when stopping first. */
    private boolean recover(Path segment) throws IOException {
        String name = segment.getFileName().toString();
        List<AuditRecord> rows = new ArrayList<>();
        AuditJournal.read(segment, rows::add);
        int[] done = new int[1];
        if (!write(() -> done[0] = store.segmentProgress(name))) {
            return false;
        }
        for (int from = done[0]; from < rows.size(); from += BATCH) {
            int to = Math.min(from + BATCH, rows.size());
            if (!write(rows.subList(from, to), Map.of(name, to))) {
                return false;
            }
        }
        Files.delete(segment); // on failure it is read back next time, its rows skipped as copied
        if (!write(() -> store.forgetSegments(List.of(name)))) {
            return false;
        }
        LOG.log(System.Logger.Level.INFO, "audit journal " + name + ": " + (rows.size() - done[0])
                + " rows of an earlier run copied to the database");
        return true;
    }

    /** Stops after copying the rows queued so far (or giving up on a failing database); waits at most {@code millis}. */
    boolean stop(long millis) {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    @FunctionalInterface
    private interface StoreWork {
        void run() throws StorageException;
    }
}
