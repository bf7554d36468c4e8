package pi.host.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;

/**
 * One audit row written as the host's {@code Database.write} + {@code AuditStore.append} write it
 * (same connection settings, same statement, prepared per row, one BEGIN IMMEDIATE transaction per
 * row), so its cost can be told apart from the rest of a call. Rows carry the session id
 * {@value #SESSION} and do not count as the benchmark tool's.
 */
final class AuditInsert implements AutoCloseable {

    static final String SESSION = "bench-audit-insert";
    private static final String SQL = "INSERT INTO audit (at, session_id, turn_id, tool_call_id, tool_name, trace_id,"
            + " delegate, args_hash, args_preview, external_path, decision, rule, source, prompted, permission_wait_ms,"
            + " duration_ms, overhead_ms, total_ms, ok, error_code) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

    private final Connection c;
    private long n;

    AuditInsert(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(5_000);
        config.enforceForeignKeys(true);
        c = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    long insert() throws SQLException {
        n++;
        try (Statement tx = c.createStatement()) {
            tx.execute("BEGIN IMMEDIATE");
            long id;
            try (PreparedStatement ps = c.prepareStatement(SQL, Statement.RETURN_GENERATED_KEYS)) {
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
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    id = keys.next() ? keys.getLong(1) : 0L;
                }
            }
            tx.execute("COMMIT");
            return id;
        }
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
