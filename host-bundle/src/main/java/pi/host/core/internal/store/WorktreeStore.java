package pi.host.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The {@code worktrees} table. */
public final class WorktreeStore {

    private static final String COLUMNS = "id, session_id, delegation_id, repository, subdir, path, branch, admin_dir,"
            + " common_dir, base, port, setup, created_at";

    private final Database db;

    public WorktreeStore(Database db) {
        this.db = db;
    }

    public void insert(WorktreeRecord w) throws StorageException {
        db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO worktrees (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, w.id());
                ps.setString(2, w.sessionId());
                ps.setString(3, w.delegationId());
                ps.setString(4, w.repository());
                ps.setString(5, w.subdir());
                ps.setString(6, w.path());
                ps.setString(7, w.branch());
                ps.setString(8, w.adminDir());
                ps.setString(9, w.commonDir());
                ps.setString(10, w.base());
                ps.setObject(11, w.port());
                ps.setString(12, w.setup());
                ps.setLong(13, w.createdAt());
                return ps.executeUpdate();
            }
        });
    }

    public void setSetup(String id, String setup) throws StorageException {
        db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE worktrees SET setup = ? WHERE id = ?")) {
                ps.setString(1, setup);
                ps.setString(2, id);
                return ps.executeUpdate();
            }
        });
    }

    /** Every worktree (the host keeps them in memory; there are few). */
    public List<WorktreeRecord> all() throws StorageException {
        return db.read(c -> {
            List<WorktreeRecord> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM worktrees ORDER BY created_at");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs));
                }
            }
            return out;
        });
    }

    public boolean delete(String id) throws StorageException {
        return db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM worktrees WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    private static WorktreeRecord row(ResultSet rs) throws SQLException {
        int port = rs.getInt(11);
        Integer p = rs.wasNull() ? null : port;
        return new WorktreeRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), p,
                rs.getString(12), rs.getLong(13));
    }
}
