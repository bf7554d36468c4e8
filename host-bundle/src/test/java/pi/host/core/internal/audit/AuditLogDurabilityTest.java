package pi.host.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static pi.host.core.internal.audit.AuditJournalTest.row;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.store.AuditRecord;
import pi.host.core.internal.store.AuditStore;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.StorageException;

/**
 * The audit trail over a real SQLite file and real journal segments: a query sees every row
 * appended before it, a clean stop leaves nothing in the journal, rows a dead host left are copied
 * once at the next start, and a failing database keeps rows in the journal and, past the bound,
 * refuses calls.
 */
class AuditLogDurabilityTest {

    @TempDir
    Path dir;

    private final List<Database> databases = new ArrayList<>();

    @AfterEach
    void closeDatabases() {
        databases.forEach(Database::close);
    }

    private Path journalDir() {
        return dir.resolve("audit-journal");
    }

    private AuditStore store() {
        Database db = Database.open(dir.resolve("pi-host.db"));
        databases.add(db);
        return new AuditStore(db);
    }

    /** An audit store over a file that is not a database: every write fails. */
    private AuditStore brokenStore() throws IOException {
        Path broken = dir.resolve("broken.db");
        Files.writeString(broken, "not a database ".repeat(200));
        Database bad = Database.open(broken);
        databases.add(bad);
        return new AuditStore(bad);
    }

    private static List<String> callIds(List<AuditRecord> newestFirst) {
        List<String> ids = new ArrayList<>();
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            ids.add(newestFirst.get(i).toolCallId());
        }
        return ids;
    }

    private long progressRows() throws StorageException {
        return databases.get(0).read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM audit_journal");
                    ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        });
    }

    @Test
    void aQuerySeesEveryRowAppendedBeforeItFromAnyThread() throws Exception {
        AuditLog log = new AuditLog(store(), journalDir());
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int thread = t;
                done.add(callers.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        log.append(row("t" + thread + "-" + i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
            List<AuditRecord> rows = log.query("s1", null, null, 5000);
            assertThat(rows).hasSize(1000);
            // each thread's rows are in the order it appended them
            List<String> ids = callIds(rows);
            assertThat(ids.stream().filter(id -> id.startsWith("t0-")).toList())
                    .isEqualTo(IntStream.range(0, 500).mapToObj(i -> "t0-" + i).toList());
        } finally {
            callers.shutdownNow();
            log.close();
        }
    }

    @Test
    void aCleanStopCopiesEverythingAndLeavesNoSegmentNorProgressRow() throws Exception {
        AuditStore store = store();
        AuditLog log = new AuditLog(store, journalDir());
        for (int i = 0; i < 50; i++) {
            log.append(row("c" + i));
        }
        log.close();
        assertThat(AuditJournal.segments(journalDir())).isEmpty();
        assertThat(store.query("s1", null, null, 100)).hasSize(50);
        assertThat(progressRows()).isZero();
        assertThatThrownBy(() -> log.append(row("late"))).isInstanceOf(StorageException.class);
        assertThat(store.query("s1", null, null, 100)).hasSize(50);
    }

    @Test
    void rowsADeadHostLeftInTheJournalAreCopiedOnceAtTheNextStart() throws Exception {
        AuditStore store = store();
        // a host that died: five rows in its journal, the first two already copied with their progress
        AuditJournal dead = new AuditJournal(journalDir());
        for (int i = 0; i < 5; i++) {
            dead.append(row("old" + i));
        }
        List<AuditJournal.Entry> copiedBeforeTheCrash = dead.take(2);
        store.copy(copiedBeforeTheCrash.stream().map(AuditJournal.Entry::row).toList(),
                Map.of(copiedBeforeTheCrash.get(1).segment(), 2));
        dead.close(false); // the files stay, as after kill -9

        AuditLog next = new AuditLog(store, journalDir());
        try {
            next.append(row("new0"));
            assertThat(callIds(next.query("s1", null, null, 100)))
                    .containsExactly("old0", "old1", "old2", "old3", "old4", "new0");
        } finally {
            next.close();
        }
        assertThat(AuditJournal.segments(journalDir())).isEmpty();
        assertThat(progressRows()).isZero();
    }

    @Test
    void aBrokenDatabaseKeepsRowsInTheJournalUntilAHostWithAWorkingOneCopiesThem() throws Exception {
        AuditLog log = new AuditLog(brokenStore(), journalDir(), AuditLog.MAX_BACKLOG, 300);
        log.append(row("c0"));
        log.append(row("c1"));
        assertThatThrownBy(() -> log.query("s1", null, null, 10)).isInstanceOf(StorageException.class)
                .hasMessageContaining("not in the database yet");
        log.close();
        assertThat(AuditJournal.segments(journalDir())).hasSize(1);

        AuditStore good = store();
        AuditLog next = new AuditLog(good, journalDir());
        try {
            next.append(row("c2"));
            // the earlier run's rows are copied before any row of this run
            assertThat(callIds(next.query("s1", null, null, 10))).containsExactly("c0", "c1", "c2");
        } finally {
            next.close();
        }
    }

    @Test
    void pastTheBacklogBoundAnAppendIsRefusedAndWritesNothing() throws Exception {
        AuditLog log = new AuditLog(brokenStore(), journalDir(), 3, 300);
        try {
            for (int i = 0; i < 3; i++) {
                log.append(row("c" + i));
            }
            assertThatThrownBy(() -> log.append(row("c3"))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("3 audit rows wait for the database");
        } finally {
            log.close();
        }
        List<String> kept = new ArrayList<>();
        for (Path segment : AuditJournal.segments(journalDir())) {
            AuditJournal.read(segment, r -> kept.add(r.toolCallId()));
        }
        assertThat(kept).containsExactly("c0", "c1", "c2");
    }

    @Test
    void aSegmentAnotherLiveJournalStillWritesIsLeftAlone() throws Exception {
        AuditStore store = store();
        AuditJournal live = new AuditJournal(journalDir()); // a host still running on the same data dir
        live.append(row("theirs"));
        AuditLog second = new AuditLog(store, journalDir());
        try {
            second.append(row("mine"));
            assertThat(callIds(second.query("s1", null, null, 10))).containsExactly("mine");
        } finally {
            second.close();
        }
        assertThat(AuditJournal.segments(journalDir())).hasSize(1);
        live.close(false);

        AuditLog third = new AuditLog(store, journalDir()); // its writer gone: now it is left over
        try {
            third.append(row("later"));
            assertThat(callIds(third.query("s1", null, null, 10))).containsExactly("mine", "theirs", "later");
        } finally {
            third.close();
        }
    }
}
