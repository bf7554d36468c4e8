package pi.host.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static pi.host.core.internal.audit.AuditJournalTest.row;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.store.AuditStore;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.StorageException;

/**
 * The copier's nap after a copy (a session's first burst of calls, docs/performance.md "branch
 * first200"): rows appended meanwhile wake nobody and share one transaction, a query or a stop cuts the
 * nap short, and once a nap finds nothing the copier waits to be woken again. Real SQLite, real
 * journal segments.
 */
class AuditCopierTest {

    private static final long LONG_NAP = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path dir;

    private Database db;
    private AuditJournal journal;
    private AuditCopier copier;

    @AfterEach
    void close() {
        if (copier != null) {
            copier.stop(10_000);
        }
        if (journal != null) {
            journal.close();
        }
        if (db != null) {
            db.close();
        }
    }

    private void start(long napNanos) throws Exception {
        db = Database.open(dir.resolve("pi-host.db"));
        journal = new AuditJournal(dir.resolve("audit-journal"));
        copier = new AuditCopier(journal, new AuditStore(db), napNanos);
        await().atMost(Duration.ofSeconds(10)).until(copier::idle); // past its start: waiting for a first row
    }

    /** What AuditLog.append does: the journal write, then the copier's wake-up if it waits. */
    private void append(String callId) throws StorageException {
        journal.append(row(callId));
        copier.wake();
    }

    private long rowsInTheDatabase() throws StorageException {
        return db.read(c -> {
            try (var ps = c.prepareStatement("SELECT count(*) FROM audit"); var rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        });
    }

    @Test
    void rowsAppendedDuringTheNapWakeNobodyAndGoInOneTransactionWhenAQueryAsks() throws Exception {
        start(LONG_NAP);
        append("c1"); // the copier waited for a first row: this wakes it
        await().atMost(Duration.ofSeconds(10)).until(() -> copier.copied() == 1);
        append("c2");
        append("c3");
        append("c4");
        assertThat(copier.wakes()).isEqualTo(1);
        // napping: the rows wait in the journal (durable there) and are not copied one by one
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> copier.copied() == 1);
        // a query's wait cuts the nap short
        assertThat(copier.awaitCopied(4, 10_000)).isTrue();
        assertThat(copier.copies()).isEqualTo(2);
        assertThat(rowsInTheDatabase()).isEqualTo(4);
    }

    @Test
    void aStopDuringTheNapCopiesTheRowsLeftAndEndsWithoutWaitingItOut() throws Exception {
        start(LONG_NAP);
        append("c1");
        await().atMost(Duration.ofSeconds(10)).until(() -> copier.copied() == 1);
        append("c2");
        long t0 = System.nanoTime();
        assertThat(copier.stop(10_000)).isTrue();
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(10));
        assertThat(copier.copied()).isEqualTo(2);
        assertThat(rowsInTheDatabase()).isEqualTo(2);
    }

    @Test
    void aNapThatFindsNothingLeavesTheCopierWaitingForTheNextRowWhichWakesIt() throws Exception {
        start(TimeUnit.MILLISECONDS.toNanos(1));
        append("c1");
        await().atMost(Duration.ofSeconds(10)).until(() -> copier.copied() == 1 && copier.idle());
        append("c2");
        // no query and no stop: the append's wake-up alone brings the row in
        await().atMost(Duration.ofSeconds(10)).until(() -> copier.copied() == 2);
        assertThat(copier.wakes()).isEqualTo(2);
        assertThat(rowsInTheDatabase()).isEqualTo(2);
    }
}
