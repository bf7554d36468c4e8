package pi.host.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoresTest {

    @TempDir
    Path dir;

    private Database db;

    @BeforeEach
    void open() {
        db = Database.open(dir.resolve("pi-host.db"));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void sessionsRoundTripAndChange() throws Exception {
        SessionStore sessions = new SessionStore(db);
        sessions.insert(new SessionRecord("s1", "/p", "/p", false, "agent", "inherit", false, 10, 10, null));
        sessions.insert(new SessionRecord("s2", null, "/data/scratch/s2", false, "plan", "auto", true, 20, 20, null));

        assertThat(sessions.find("s1")).get().satisfies(s -> {
            assertThat(s.temporary()).isFalse();
            assertThat(s.mode()).isEqualTo("agent");
        });
        assertThat(sessions.find("s2").orElseThrow().temporary()).isTrue();
        assertThat(sessions.list()).extracting(SessionRecord::id).containsExactly("s2", "s1");

        assertThat(sessions.configure("s1", "plan", "ask", 30)).isTrue();
        assertThat(sessions.find("s1").orElseThrow()).satisfies(s -> {
            assertThat(s.mode()).isEqualTo("plan");
            assertThat(s.permissionMode()).isEqualTo("ask");
            assertThat(s.updatedAt()).isEqualTo(30);
        });
        assertThat(sessions.archive("s1", 40)).isTrue();
        assertThat(sessions.archive("s1", 50)).isTrue();
        assertThat(sessions.find("s1").orElseThrow().archivedAt()).isEqualTo(40L);

        assertThat(sessions.delete("s1")).isTrue();
        assertThat(sessions.delete("s1")).isFalse();
        assertThat(sessions.find("s1")).isEmpty();
        assertThat(sessions.configure("nope", "agent", "ask", 1)).isFalse();
    }

    @Test
    void settingsPutAndRemove() throws Exception {
        SettingsStore settings = new SettingsStore(db);
        settings.putAll(Map.of("a", "1", "b", "2"));
        Map<String, String> change = new HashMap<>();
        change.put("a", null);
        change.put("b", "3");
        settings.putAll(change);
        assertThat(settings.all()).containsExactly(Map.entry("b", "3"));
    }

    @Test
    void auditAppendsAndQueriesNewestFirstWithFilters() throws Exception {
        AuditStore audit = new AuditStore(db);
        audit.append(row(100, "s1", "Read", true, null));
        audit.append(row(200, "s1", "Write", false, "TOOL_DENIED"));
        audit.append(row(300, "s2", "Read", true, null));

        List<AuditRecord> all = audit.query(null, null, null, 10);
        assertThat(all).extracting(AuditRecord::at).containsExactly(300L, 200L, 100L);
        assertThat(audit.query("s1", null, null, 10)).hasSize(2);
        assertThat(audit.query(null, "Read", null, 10)).hasSize(2);
        assertThat(audit.query(null, null, 200L, 10)).hasSize(2);
        assertThat(audit.query(null, null, null, 1)).hasSize(1);
        AuditRecord denied = audit.query("s1", "Write", null, 10).get(0);
        assertThat(denied.ok()).isFalse();
        assertThat(denied.errorCode()).isEqualTo("TOOL_DENIED");
        assertThat(denied.prompted()).isTrue();
        assertThat(denied.permissionWaitMs()).isEqualTo(1.5);
    }

    private static AuditRecord row(long at, String session, String tool, boolean ok, String code) {
        return new AuditRecord(0, at, session, "t", "c" + at, tool, "trace" + at, null, "hash", "{}", null,
                ok ? "allow" : "deny", "rule", "source", true, 1.5, 2, 0.1, 3.6, ok, code);
    }
}
