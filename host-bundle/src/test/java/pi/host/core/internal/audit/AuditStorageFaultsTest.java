package pi.host.core.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static pi.host.core.internal.audit.AuditJournalTest.row;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.store.AuditRecord;
import pi.host.core.internal.store.AuditStore;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.SmallDisk;
import pi.host.core.internal.store.StorageException;

/**
 * Pins issue 13.8 for the audit trail: after a disk-full episode {@code audit.query} failed until the
 * host restarted, and rows went on being accepted for a database file that had been deleted.
 */
class AuditStorageFaultsTest {

    @TempDir
    Path dir;

    private static List<String> callIds(List<AuditRecord> newestFirst) {
        List<String> ids = new ArrayList<>();
        newestFirst.forEach(r -> ids.add(0, r.toolCallId()));
        return ids;
    }

    @Test
    void afterAFullDiskTheRowsThatWereAcceptedReachTheDatabaseAndQueriesAnswerWithoutARestart() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("small"), 8)) {
            Database db = Database.open(disk.root().resolve("pi-host.db"));
            AuditLog log = new AuditLog(new AuditStore(db), disk.root().resolve("audit-journal"),
                    AuditLog.MAX_BACKLOG, 1_000);
            try {
                log.append(row("before"));
                assertThat(callIds(log.query("s1", null, null, 100))).containsExactly("before");
                disk.fill();
                List<String> accepted = new ArrayList<>(List.of("before"));
                int refused = 0;
                for (int i = 0; i < 200; i++) {
                    try {
                        log.append(row("full" + i));
                        accepted.add("full" + i); // in the journal: durable, waits for the database
                    } catch (StorageException e) {
                        assertThat(e).hasMessageContaining("No space left");
                        refused++;
                    }
                }
                assertThat(refused).as("a full disk refuses rows").isPositive();
                assertThatThrownBy(() -> log.query("s1", null, null, 1000)).isInstanceOf(StorageException.class);

                disk.free();
                log.append(row("after"));
                accepted.add("after");
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                        assertThat(callIds(log.query("s1", null, null, 1000))).isEqualTo(accepted));
            } finally {
                log.close();
                db.close();
            }
        }
    }

    @Test
    void rowsAreRefusedWhileTheDatabaseFileIsDeletedAndAcceptedOnceItIsBack() throws Exception {
        Path file = dir.resolve("pi-host.db");
        Database db = Database.open(file);
        AuditLog log = new AuditLog(new AuditStore(db), dir.resolve("audit-journal"));
        try {
            log.append(row("before"));
            assertThat(callIds(log.query("s1", null, null, 10))).containsExactly("before");
            Files.createLink(dir.resolve("saved.db"), file);
            Files.delete(file);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThatThrownBy(() -> log.append(row("gone"))).isInstanceOf(StorageException.class)
                            .hasMessageContaining("was deleted while the host runs"));
            assertThatThrownBy(() -> log.query("s1", null, null, 10)).isInstanceOf(StorageException.class);

            Files.createLink(file, dir.resolve("saved.db"));
            await().atMost(Duration.ofSeconds(5)).ignoreExceptions().untilAsserted(() -> log.append(row("back")));
            assertThat(callIds(log.query("s1", null, null, 10))).containsExactly("before", "back");
        } finally {
            log.close();
            db.close();
        }
    }
}
