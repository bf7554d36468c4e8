package pi.host.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {

    @TempDir
    Path dir;

    @Test
    void createsTheLatestSchemaInWalMode() throws Exception {
        try (Database db = Database.open(dir.resolve("pi-host.db"))) {
            assertThat(db.healthy()).isTrue();
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latest());
            String mode = db.read(c -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                    rs.next();
                    return rs.getString(1);
                }
            });
            assertThat(mode).isEqualToIgnoringCase("wal");
        }
    }

    /**
     * Pins that two connections opening a new file at once both end at the latest schema: each reads the
     * version again under the migration's write lock (before, the later one applied migration 1 a second
     * time and failed on "table settings already exists"; the database begun at the core's start and a
     * second activation's are such a pair).
     */
    @Test
    void twoOpenersOfANewFileAtOnceBothMigrate() throws Exception {
        for (int i = 0; i < 20; i++) {
            Path file = dir.resolve("race-" + i).resolve("pi-host.db");
            try (Database a = Database.openInBackground(file, () -> true);
                    Database b = Database.openInBackground(file, () -> true)) {
                assertThat(a.healthy()).as("first opener, round %d", i).isTrue();
                assertThat(b.healthy()).as("second opener, round %d", i).isTrue();
                assertThat(a.schemaVersion()).isEqualTo(Migrations.latest());
                assertThat(b.schemaVersion()).isEqualTo(Migrations.latest());
            }
        }
    }

    @Test
    void reopeningKeepsDataAndVersion() throws Exception {
        Path file = dir.resolve("pi-host.db");
        try (Database db = Database.open(file)) {
            new SettingsStore(db).putAll(Map.of("k", "v"));
        }
        try (Database db = Database.open(file)) {
            assertThat(db.schemaVersion()).isEqualTo(Migrations.latest());
            assertThat(new SettingsStore(db).all()).containsEntry("k", "v");
        }
    }

    @Test
    void aFailedMigrationLeavesThePreviousSchemaAuthoritative() throws Exception {
        Path file = dir.resolve("pi-host.db");
        List<Migrations.Migration> good = List.of(new Migrations.Migration(1, List.of("CREATE TABLE a (x INTEGER)")));
        try (Database db = Database.open(file, good, 1000)) {
            assertThat(db.schemaVersion()).isEqualTo(1);
        }
        List<Migrations.Migration> bad = List.of(good.get(0), new Migrations.Migration(2,
                List.of("CREATE TABLE b (y INTEGER)", "THIS IS NOT SQL")));
        try (Database db = Database.open(file, bad, 1000)) {
            assertThat(db.healthy()).isFalse();
            assertThatThrownBy(() -> db.read(c -> 1)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("migration to schema 2 failed");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("PRAGMA user_version")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE name = 'b'")) {
                assertThat(rs.next()).as("table of the failed migration").isFalse();
            }
        }
    }

    @Test
    void aFileThatIsNotADatabaseIsBrokenAndEveryCallFails() throws Exception {
        Path file = dir.resolve("pi-host.db");
        Files.writeString(file, "this is not an sqlite database, not even close ".repeat(100));
        try (Database db = Database.open(file)) {
            assertThat(db.healthy()).isFalse();
            assertThat(db.schemaVersion()).isEqualTo(-1);
            assertThatThrownBy(() -> new SettingsStore(db).all()).isInstanceOf(StorageException.class);
            assertThatThrownBy(() -> new SettingsStore(db).putAll(Map.of("a", "b")))
                    .isInstanceOf(StorageException.class);
        }
    }

    @Test
    void aWriteLockHeldByAnotherProcessIsAStorageErrorAfterTheBusyTimeout() throws Exception {
        Path file = dir.resolve("pi-host.db");
        try (Database db = Database.open(file, Migrations.ALL, 200);
                Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = other.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            assertThatThrownBy(() -> new SettingsStore(db).putAll(Map.of("a", "b")))
                    .isInstanceOf(StorageException.class).hasMessageContaining("SQLITE_BUSY");
            s.execute("ROLLBACK");
            new SettingsStore(db).putAll(Map.of("a", "b"));
            assertThat(new SettingsStore(db).all()).containsEntry("a", "b");
        }
    }

    /**
     * Only a log copied back to its end is started over by the next writer; a checkpoint that runs
     * beside a steady writer never gets there unless it also copies between two transactions.
     */
    @Test
    void aCheckpointDuringSteadyWritesLetsTheLogStartOver() throws Exception {
        Path file = dir.resolve("pi-host.db");
        Path wal = dir.resolve("pi-host.db-wal");
        try (Database db = Database.open(file)) {
            AuditStore audit = new AuditStore(db);
            for (int i = 0; i < 300; i++) {
                audit.append(row(i));
            }
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
            Thread writer = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        audit.append(row(1000));
                        written.incrementAndGet();
                    }
                } catch (StorageException e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.start();
            try {
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> written.get() > 50);
                assertThat(db.checkpointNow()).isTrue();
            } finally {
                stop.set(true);
                writer.join(10_000);
            }
            long afterCheckpoint = Files.size(wal);
            for (int i = 0; i < 100; i++) {
                audit.append(row(2000 + i));
            }
            assertThat(Files.size(wal)).as("the log was started over, not appended to").isEqualTo(afterCheckpoint);
        }
    }

    /**
     * Pins round grep11: a due checkpoint waits while the host's tool calls run (it took CPU from a session's
     * first call), and runs once they paused.
     */
    @Test
    void aDueCheckpointWaitsForTheCallsToPause() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean paused = new java.util.concurrent.atomic.AtomicBoolean();
        try (Database db = Database.open(dir.resolve("pi-host.db"), paused::get, 60_000)) {
            new AuditStore(db).append(row(1));
            // due a second after the start at the latest; still waiting well after that
            await().during(Duration.ofMillis(1_500))
                    .atMost(Duration.ofSeconds(3)).until(() -> db.checkpoints() == 0);
            paused.set(true);
            await().atMost(Duration.ofSeconds(5)).until(() -> db.checkpoints() == 1);
        }
    }

    /** Pins round grep11: the wait for a pause is bounded, so the log is still folded back under steady calls. */
    @Test
    void aCheckpointWaitsForAPauseAtMostItsBound() throws Exception {
        try (Database db = Database.open(dir.resolve("pi-host.db"), () -> false, 300)) {
            new AuditStore(db).append(row(1));
            await().atMost(Duration.ofSeconds(5)).until(() -> db.checkpoints() == 1);
        }
    }

    /** Pins round grep11: a thousand commits are folded back at once, pause or not (the log's size bound). */
    @Test
    void aThousandCommitsAreCheckpointedWithoutWaitingForAPause() throws Exception {
        try (Database db = Database.open(dir.resolve("pi-host.db"), () -> false, 60_000)) {
            AuditStore audit = new AuditStore(db);
            for (int i = 0; i < 1_000; i++) {
                audit.append(row(i));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> db.checkpoints() >= 1);
        }
    }

    private static AuditRecord row(long at) {
        return new AuditRecord(0, at, "s1", "t", "c" + at, "Read", "trace", null, "hash", "{}", null, "allow",
                "rule", "source", false, 0, 0.1, 0.1, 0.2, true, null);
    }
}
