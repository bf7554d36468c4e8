package pi.host.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 13.8 on a real SQLite file: after a full disk every later write failed until a restart,
 * and a database file deleted or replaced under the running host went unnoticed (writes answered
 * ok into a file nobody would open again).
 */
class StorageFaultsTest {

    @TempDir
    Path dir;

    private static void put(Database db, String key, String value) throws StorageException {
        new SettingsStore(db).putAll(Map.of(key, value));
    }

    private static String get(Database db, String key) throws StorageException {
        return new SettingsStore(db).all().get(key);
    }

    @Test
    void writesFailWhileTheDiskIsFullAndSucceedAgainOnceSpaceIsBackWithoutAReopen() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("small"), 4);
                Database db = Database.open(disk.root().resolve("pi-host.db"))) {
            put(db, "before", "1");
            disk.fill();
            String big = "x".repeat(64 * 1024);
            assertThatThrownBy(() -> {
                for (int i = 0; i < 64; i++) {
                    put(db, "k" + i, big);
                }
            }).isInstanceOf(StorageException.class).hasMessageContaining("full");
            assertThatThrownBy(() -> put(db, "during", "1")).isInstanceOf(StorageException.class);

            disk.free();
            put(db, "after", "1");
            assertThat(get(db, "after")).isEqualTo("1");
            assertThat(get(db, "before")).isEqualTo("1");
            assertThat(get(db, "during")).as("a failed write left nothing").isNull();
            db.requireIntact();
        }
    }

    @Test
    void aDeletedDatabaseFileFailsEveryReadAndWriteUntilItIsBack() throws Exception {
        Path file = dir.resolve("pi-host.db");
        Path saved = dir.resolve("saved.db");
        try (Database db = Database.open(file)) {
            put(db, "k", "v");
            Files.createLink(saved, file);
            Files.delete(file);

            assertThatThrownBy(() -> put(db, "k2", "v")).isInstanceOf(StorageException.class)
                    .hasMessage("the database file " + file + " was deleted while the host runs;"
                            + " nothing is stored until it is back or the host restarts");
            assertThatThrownBy(() -> get(db, "k")).isInstanceOf(StorageException.class)
                    .hasMessageContaining("was deleted");
            assertThatThrownBy(db::requireIntact).isInstanceOf(StorageException.class);

            Files.createLink(file, saved); // the same file is back at its path
            assertThat(db.verify()).isNull();
            put(db, "k2", "v2");
            assertThat(get(db, "k2")).isEqualTo("v2");
        }
        try (Database db = Database.open(file)) {
            assertThat(get(db, "k2")).as("what was written after it came back is in the file").isEqualTo("v2");
        }
    }

    @Test
    void aDeletionIsNoticedWithoutAnyWriteWithinTheCheckInterval() throws Exception {
        Path file = dir.resolve("pi-host.db");
        try (Database db = Database.open(file)) {
            db.requireIntact();
            Files.delete(file);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThatThrownBy(db::requireIntact).hasMessageContaining("was deleted"));
        }
    }

    @Test
    void aReplacedDatabaseFileIsNeverWrittenThrough() throws Exception {
        Path file = dir.resolve("pi-host.db");
        Path other = dir.resolve("other.db");
        try (Database second = Database.open(other)) {
            put(second, "owner", "other");
        }
        try (Database db = Database.open(file)) {
            put(db, "owner", "host");
            Files.move(other, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(dir.resolve("other.db-wal"));
            Files.deleteIfExists(dir.resolve("other.db-shm"));

            assertThatThrownBy(() -> put(db, "written", "1")).isInstanceOf(StorageException.class)
                    .hasMessageContaining("was replaced by another file");
            assertThatThrownBy(() -> get(db, "owner")).isInstanceOf(StorageException.class);
        }
        try (Database db = Database.open(file)) {
            assertThat(get(db, "written")).as("the refused write is nowhere").isNull();
        }
    }

    @Test
    void aDatabaseMadeReadOnlyFailsWritesAndRecoversOnceWritable() throws Exception {
        Path file = dir.resolve("pi-host.db");
        Path wal = dir.resolve("pi-host.db-wal");
        try (Database db = Database.open(file)) {
            put(db, "k", "v");
            // immutable: even root's open descriptors may not write (chmod would not stop root)
            SmallDisk.run("chattr", "+i", file.toString(), wal.toString());
            try {
                assertThatThrownBy(() -> put(db, "k2", "v")).isInstanceOf(StorageException.class)
                        .hasMessageStartingWith("storage write failed");
                assertThat(get(db, "k")).as("reads still work").isEqualTo("v");
            } finally {
                SmallDisk.run("chattr", "-i", file.toString(), wal.toString());
            }
            put(db, "k2", "v2");
            assertThat(get(db, "k2")).isEqualTo("v2");
        }
    }
}
