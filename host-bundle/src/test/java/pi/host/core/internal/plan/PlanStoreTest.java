package pi.host.core.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.SessionStore;
import pi.host.core.internal.store.StorageException;

class PlanStoreTest {

    @TempDir
    Path dir;

    private Database db;
    private SessionStore sessions;

    @BeforeEach
    void open() throws Exception {
        db = Database.open(dir.resolve("pi-host.db"));
        sessions = new SessionStore(db);
        sessions.insert(new SessionRecord("s1", null, dir.toString(), false, "agent", "ask", false, 1, 1, null));
        sessions.insert(new SessionRecord("s2", null, dir.toString(), false, "agent", "ask", false, 1, 1, null));
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static PlanStore.Approval pending(String id, String session) {
        return new PlanStore.Approval(id, session, "t1", "c1", "plan", ".pi/plan/x.md", "pending", null, 10, null);
    }

    private long auditRows() throws StorageException {
        return db.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM audit WHERE tool_name = 'plans.resolve'");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    @Test
    void approveCommitsTheRowTheSessionAndTheAuditTogether() throws Exception {
        PlanStore store = new PlanStore(db);
        store.enter("s1", "plan", 5);
        store.insertPending(pending("a1", "s1"));
        PlanStore.Approval done = store.resolve("a1", "s1", true, "accept-edits", 20);
        assertThat(done.status()).isEqualTo("approved");
        assertThat(store.find("a1").orElseThrow().status()).isEqualTo("approved");
        SessionRecord s = sessions.find("s1").orElseThrow();
        assertThat(s.mode()).isEqualTo("agent");
        assertThat(s.permissionMode()).isEqualTo("accept-edits");
        assertThat(auditRows()).isEqualTo(1);
    }

    @Test
    void whenTheAuditInsertFailsNothingChanges() throws Exception {
        PlanStore store = new PlanStore(db, (c, a, decision, mode, now) -> {
            throw new SQLException("disk full (simulated)");
        });
        store.enter("s1", "plan", 5);
        store.insertPending(pending("a1", "s1"));
        assertThatThrownBy(() -> store.resolve("a1", null, true, "auto", 20)).isInstanceOf(StorageException.class);
        assertThat(store.find("a1").orElseThrow().status()).isEqualTo("pending");
        SessionRecord s = sessions.find("s1").orElseThrow();
        assertThat(s.mode()).isEqualTo("plan");
        assertThat(s.permissionMode()).isEqualTo("ask");
        assertThat(auditRows()).isZero();
        // and the real store can still approve it afterwards
        new PlanStore(db).resolve("a1", null, true, "auto", 30);
        assertThat(sessions.find("s1").orElseThrow().permissionMode()).isEqualTo("auto");
    }

    @Test
    void rejectKeepsTheModeAndStaleDuplicateUnknownOrForeignResolutionsAreRefused() throws Exception {
        PlanStore store = new PlanStore(db);
        store.enter("s1", "plan", 5);
        store.insertPending(pending("a1", "s1"));
        assertThatThrownBy(() -> store.resolve("a1", "s2", true, "auto", 20)).hasRootCauseInstanceOf(
                PlanStore.Refused.class).hasMessageContaining("does not belong");
        assertThatThrownBy(() -> store.resolve("nope", null, false, null, 20)).hasRootCauseInstanceOf(
                PlanStore.Refused.class).hasMessageContaining("no plan approval");
        store.resolve("a1", "s1", false, null, 20);
        assertThat(sessions.find("s1").orElseThrow().mode()).isEqualTo("plan");
        assertThatThrownBy(() -> store.resolve("a1", "s1", true, "auto", 21)).hasRootCauseInstanceOf(
                PlanStore.Refused.class).hasMessageContaining("rejected, not pending");
        assertThat(sessions.find("s1").orElseThrow().mode()).isEqualTo("plan");
        assertThat(auditRows()).isEqualTo(1);
    }

    @Test
    void onePendingPerSessionAndOnlyInItsMode() throws Exception {
        PlanStore store = new PlanStore(db);
        assertThatThrownBy(() -> store.insertPending(pending("a0", "s1"))).hasRootCauseInstanceOf(
                PlanStore.Refused.class);
        store.enter("s1", "plan", 5);
        assertThatThrownBy(() -> store.enter("s1", "goal", 6)).hasRootCauseInstanceOf(PlanStore.Refused.class);
        store.insertPending(pending("a1", "s1"));
        assertThatThrownBy(() -> store.insertPending(pending("a2", "s1"))).hasRootCauseInstanceOf(
                PlanStore.Refused.class).hasMessageContaining("still pending");
        assertThat(store.pending(null)).extracting(PlanStore.Approval::id).containsExactly("a1");
        assertThat(store.pending("s2")).isEmpty();
    }

    @Test
    void theStartUpFenceInterruptsEveryPendingApproval() throws Exception {
        PlanStore store = new PlanStore(db);
        store.enter("s1", "plan", 5);
        store.insertPending(pending("a1", "s1"));
        assertThat(store.interruptPending(50)).isEqualTo(1);
        assertThat(store.find("a1").orElseThrow().status()).isEqualTo("interrupted");
        assertThat(store.pending(null)).isEmpty();
        assertThatThrownBy(() -> store.resolve("a1", null, true, "auto", 60)).hasRootCauseInstanceOf(
                PlanStore.Refused.class).hasMessageContaining("interrupted");
    }

    @Test
    void artifactsAreWrittenByteForByteUnderUniqueNamesAndNeverThroughALinkOut() throws Exception {
        PlanService service = new PlanService(new PlanStore(db), null, null, java.time.Clock.systemUTC());
        Path root = Files.createDirectories(dir.resolve("ws"));
        String text = "# Plän ✓\r\n- step 1\r\n\tend\n";
        Path a = service.writeArtifact(root, "plan", text, 1000);
        Path b = service.writeArtifact(root, "plan", text, 1000);
        assertThat(a).isNotEqualTo(b);
        assertThat(Files.readAllBytes(a)).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        assertThat(a.getParent()).isEqualTo(root.toRealPath().resolve(".pi/plan"));

        Path other = Files.createDirectories(dir.resolve("ws2"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Files.createSymbolicLink(other.resolve(".pi"), outside);
        assertThatThrownBy(() -> service.writeArtifact(other, "goal", text, 1000))
                .hasMessageContaining("symbolic link");
        assertThat(outside).isEmptyDirectory();
    }
}
