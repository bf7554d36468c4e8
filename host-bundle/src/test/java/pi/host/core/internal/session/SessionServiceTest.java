package pi.host.core.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.SessionStore;

class SessionServiceTest {

    @TempDir
    Path data;
    @TempDir
    Path project;

    private Database db;
    private SessionService sessions;
    private final Instant now = Instant.parse("2026-11-30T12:00:00Z");

    @BeforeEach
    void open() {
        db = Database.open(data.resolve("pi-host.db"));
        sessions = new SessionService(new SessionStore(db), data, Clock.fixed(now, ZoneOffset.UTC));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aProjectSessionStoresTheCanonicalRootAndCreatesNoFolders() throws Exception {
        Path link = Files.createSymbolicLink(data.resolve("link"), project);
        SessionRecord s = sessions.create(link.toString(), false, "agent", "inherit", false);
        assertThat(s.workspaceRoot()).isEqualTo(project.toRealPath().toString());
        assertThat(s.temporary()).isFalse();
        assertThat(sessions.scratchDir(s.id())).doesNotExist();
    }

    @Test
    void aTemporarySessionsWorkspaceIsItsScratchDir() throws Exception {
        SessionRecord s = sessions.create(null, false, "agent", "inherit", false);
        assertThat(s.temporary()).isTrue();
        assertThat(s.workspaceRoot()).isEqualTo(data.resolve("scratch").resolve(s.id()).toString());
        Path scratch = sessions.ensureScratch(s.id());
        assertThat(scratch).isDirectory();
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(scratch)))
                .isEqualTo("rwx------");
    }

    @Test
    void deleteRemovesTheRecordAndEveryFolderAndTellsListeners() throws Exception {
        SessionRecord s = sessions.create(project.toString(), false, "agent", "inherit", false);
        for (String f : SessionService.SESSION_FOLDERS) {
            Files.createDirectories(data.resolve(f).resolve(s.id()).resolve("deep"));
            Files.writeString(data.resolve(f).resolve(s.id()).resolve("deep").resolve("x"), "x");
        }
        Path outside = Files.writeString(project.resolve("keep.txt"), "keep");
        Files.createSymbolicLink(data.resolve("scratch").resolve(s.id()).resolve("link"), project);
        List<String> told = new ArrayList<>();
        sessions.addListener(told::add);

        assertThat(sessions.delete(s.id())).isTrue();
        assertThat(sessions.find(s.id())).isEmpty();
        for (String f : SessionService.SESSION_FOLDERS) {
            assertThat(data.resolve(f).resolve(s.id())).doesNotExist();
        }
        assertThat(outside).as("a link out of scratch is removed, not followed").hasContent("keep");
        assertThat(told).containsExactly(s.id());
        assertThat(sessions.delete(s.id())).isFalse();
    }

    @Test
    void theSweepRemovesOrphansAndIdleScratchAndKeepsTheRest() throws Exception {
        SessionRecord active = sessions.create(project.toString(), false, "agent", "inherit", false);
        SessionRecord idle = sessions.create(project.toString(), false, "agent", "inherit", false);
        Path activeDir = sessions.ensureScratch(active.id());
        Files.writeString(activeDir.resolve("f"), "x");
        Path idleDir = sessions.ensureScratch(idle.id());
        Path old = Files.writeString(idleDir.resolve("f"), "x");
        FileTime longAgo = FileTime.from(now.minus(Duration.ofDays(8)));
        Files.setLastModifiedTime(old, longAgo);
        Files.setLastModifiedTime(idleDir, longAgo);
        Path orphan = Files.createDirectories(data.resolve("scratch").resolve("s_gone"));
        Files.setLastModifiedTime(activeDir.resolve("f"), FileTime.from(now));

        sessions.sweepScratch();

        assertThat(activeDir).isDirectory();
        assertThat(idleDir).doesNotExist();
        assertThat(orphan).doesNotExist();
    }

    @Test
    void theSweepRemovesSnapshotFoldersOfSessionsThatAreGone() throws Exception {
        SessionRecord live = sessions.create(project.toString(), false, "agent", "inherit", false);
        Path kept = Files.createDirectories(data.resolve("snapshots").resolve(live.id()).resolve("snap_1"));
        Path orphan = Files.createDirectories(data.resolve("snapshots").resolve("s_gone").resolve("snap_2"));

        sessions.sweepScratch();

        assertThat(kept).isDirectory();
        assertThat(orphan.getParent()).doesNotExist();
    }
}
