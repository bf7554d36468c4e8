package pi.host.core.internal.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one moment an atomic replace has a second name (linked, not yet renamed over the target):
 * a host killed then leaves that name, and the next host to start removes it. A live host's
 * journal is never swept.
 */
class TempJournalTest {

    @TempDir
    Path tmp;

    @Test
    void aTemporaryNameAKilledHostLeftIsRemovedByTheNextStartAndALiveHostsIsNot() throws Exception {
        Path folder = tmp.resolve("atomic-writes");
        Path ws = Files.createDirectories(tmp.resolve("ws")).toRealPath();
        Path left = Files.writeString(ws.resolve(WholeWrite.TEMP_PREFIX + "1234abcd"), "half a write");
        Path kept = Files.writeString(ws.resolve(WholeWrite.TEMP_PREFIX + "feed"), "not journaled");
        Path live = Files.writeString(ws.resolve(WholeWrite.TEMP_PREFIX + "beef"), "a live host's");
        Path done = Files.writeString(ws.resolve(WholeWrite.TEMP_PREFIX + "d0ne"), "ended, then reused");

        TempJournal liveJournal = TempJournal.open(folder, (d, n) -> false);
        liveJournal.begin(ws, live.getFileName().toString());
        TempJournal killed = TempJournal.open(folder, (d, n) -> false);
        killed.begin(ws, left.getFileName().toString());
        killed.begin(ws, done.getFileName().toString());
        killed.end(done.getFileName().toString());
        // a killed host: its journal stays with a line that has no match, and its lock is gone
        killed.close();

        LinuxFiles next = LinuxFiles.open(folder);
        try {
            assertThat(left).doesNotExist();
            assertThat(kept).exists(); // never journaled: not ours to remove
            assertThat(done).exists(); // its journal line was matched
            assertThat(live).exists(); // its host still runs
            try (Stream<Path> journals = Files.list(folder)) {
                assertThat(journals.filter(p -> p.toString().endsWith(TempJournal.SUFFIX))).hasSize(2);
            }
        } finally {
            next.close();
            liveJournal.end(live.getFileName().toString());
            liveJournal.close();
        }
        try (Stream<Path> journals = Files.list(folder)) {
            assertThat(journals).isEmpty(); // a clean stop removes its journal
        }
    }

    @Test
    void aLeftNameThatIsNoLongerARegularFileIsNotRemoved() throws Exception {
        Path folder = tmp.resolve("atomic-writes");
        Path ws = Files.createDirectories(tmp.resolve("ws")).toRealPath();
        Path dir = Files.createDirectories(ws.resolve(WholeWrite.TEMP_PREFIX + "42"));
        TempJournal killed = TempJournal.open(folder, (d, n) -> false);
        killed.begin(ws, dir.getFileName().toString());
        killed.close();
        LinuxFiles.open(folder).close();
        assertThat(dir).isDirectory();
    }
}
