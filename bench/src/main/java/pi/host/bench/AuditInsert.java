package pi.host.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.sqlite.SQLiteConfig;

/**
 * One audit row written as the host's {@code Database.write} + {@code AuditStore.copy} write a
 * group of one (same connection settings, generated keys off, statements prepared once and reused,
 * one BEGIN IMMEDIATE transaction per row), so its cost can be told apart from the rest of a call.
 * Rows carry the session id {@value #SESSION} and do not count as the benchmark tool's.
 */
final class AuditInsert implements AutoCloseable {

    static final String SESSION = "bench-audit-insert";
    private static final String SQL = "INSERT INTO audit (at, session_id, turn_id, tool_call_id, tool_name, trace_id,"
            + " delegate, args_hash, args_preview, external_path, decision, rule, source, prompted, permission_wait_ms,"
            + " duration_ms, overhead_ms, total_ms, ok, error_code) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

    private final Connection c;
    private final PreparedStatement begin;
    private final PreparedStatement commit;
    private final PreparedStatement insert;
    private long n;

    AuditInsert(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(5_000);
        config.enforceForeignKeys(true);
        config.setGetGeneratedKeys(false);
        c = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
        begin = c.prepareStatement("BEGIN IMMEDIATE");
        commit = c.prepareStatement("COMMIT");
        insert = c.prepareStatement(SQL);
    }

    long insert() throws SQLException {
        n++;
        begin.execute();
        PreparedStatement ps = insert;
        int i = 1;
        ps.setLong(i++, System.currentTimeMillis());
        ps.setString(i++, SESSION);
        ps.setString(i++, "t1");
        ps.setString(i++, "c" + n);
        ps.setString(i++, "bench_insert");
        ps.setString(i++, "tr_0123456789abcdef0123456789abcdef");
        ps.setString(i++, null);
        ps.setString(i++, "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        ps.setString(i++, "{\"text\":\"hello\"}");
        ps.setString(i++, null);
        ps.setString(i++, "allow");
        ps.setString(i++, "plugin.low-risk");
        ps.setString(i++, "risk:low");
        ps.setInt(i++, 0);
        ps.setDouble(i++, 0);
        ps.setDouble(i++, 0.05);
        ps.setDouble(i++, 0.1);
        ps.setDouble(i++, 0.15);
        ps.setInt(i++, 1);
        ps.setString(i, null);
        ps.executeUpdate();
        commit.execute();
        if (n % 1_000 == 0) {
            // as the host's checkpointer does: folded back between two transactions, the log starts over
            try (java.sql.Statement st = c.createStatement()) {
                st.execute("PRAGMA wal_checkpoint(PASSIVE)");
            }
        }
        return n;
    }

    @Override
    public void close() {
        try {
            c.close();
        } catch (SQLException e) {
            // best effort
        }
    }
}
