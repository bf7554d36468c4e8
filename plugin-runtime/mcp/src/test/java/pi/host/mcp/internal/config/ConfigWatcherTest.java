package pi.host.mcp.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mcp.json is followed live (created, edited in place, replaced by rename) without waking on its neighbours. */
class ConfigWatcherTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dataDir;

    private Path file;
    private final AtomicInteger reloads = new AtomicInteger();
    private ConfigWatcher watcher;

    @BeforeEach
    void start() throws IOException {
        file = dataDir.resolve("mcp.json");
        Files.writeString(file, "{\"mcpServers\": {}}");
        // the database's journal is there before the host's calls write it
        Files.writeString(dataDir.resolve("pi-host.db-wal"), "");
        watcher = new ConfigWatcher(file, reloads::incrementAndGet);
        watcher.start();
    }

    @AfterEach
    void stop() {
        watcher.close();
    }

    /** Pins that an edit in place is reloaded once (its modify events and the look agree). */
    @Test
    void anEditInPlaceIsReloadedOnce() throws Exception {
        Files.writeString(file, "{\"mcpServers\": {\"a\": {\"command\": \"node\"}}}");
        await().atMost(BOUND).until(() -> reloads.get() == 1);
        await().during(Duration.ofMillis(ConfigWatcher.POLL_MS * 2)).atMost(BOUND).until(() -> reloads.get() == 1);
    }

    /** Pins the watch: an editor's write-then-rename is reported once, as soon as the rename happened. */
    @Test
    void aReplacementByRenameIsReloadedOnce() throws Exception {
        Path temp = dataDir.resolve("mcp.json.tmp");
        Files.writeString(temp, "{\"mcpServers\": {\"b\": {\"command\": \"node\"}}}");
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        await().atMost(BOUND).until(() -> reloads.get() == 1);
        assertThat(watcher.wakes()).as("the rename woke the watcher").isPositive();
        await().during(Duration.ofMillis(ConfigWatcher.POLL_MS * 2)).atMost(BOUND).until(() -> reloads.get() == 1);
    }

    /**
     * Pins that the database's writes beside the file (one per call) wake the watcher without a look at the
     * file each (before, every wake read its attributes), and that an edit after them is still reloaded.
     */
    @Test
    void aNeighboursWritesDoNotLookAtTheFile() throws Exception {
        long started = System.nanoTime();
        long looksBefore = watcher.looks();
        Path wal = dataDir.resolve("pi-host.db-wal");
        for (int i = 0; i < 50; i++) {
            Files.writeString(wal, "row " + i + "\n", StandardOpenOption.APPEND);
            long written = i + 1;
            await().atMost(BOUND).until(() -> watcher.wakes() >= written || reloads.get() > 0);
        }
        long polls = 1 + Duration.ofNanos(System.nanoTime() - started).toMillis() / ConfigWatcher.POLL_MS;
        assertThat(watcher.looks() - looksBefore).as("looks at mcp.json for 50 neighbour writes (%d polls due)", polls)
                .isLessThanOrEqualTo(polls);
        assertThat(reloads).hasValue(0);

        Files.writeString(file, "{\"mcpServers\": {\"c\": {\"command\": \"node\"}}}");
        await().atMost(BOUND).until(() -> reloads.get() == 1);
    }

    /** A file that appears after the start (the user adds servers later) is reloaded. */
    @Test
    void aFileCreatedLaterIsReloaded() throws Exception {
        watcher.close();
        Files.delete(file);
        watcher = new ConfigWatcher(file, reloads::incrementAndGet);
        watcher.start();
        Files.writeString(file, "{\"mcpServers\": {}}");
        await().atMost(BOUND).until(() -> reloads.get() == 1);
    }
}
