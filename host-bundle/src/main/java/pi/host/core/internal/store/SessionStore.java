package pi.host.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code sessions} table. */
public final class SessionStore {

    private static final String COLUMNS = "id, project_root, workspace_root, isolated, mode, permission_mode,"
            + " unattended, created_at, updated_at, archived_at";

    private final Database db;

    public SessionStore(Database db) {
        this.db = db;
    }

    public void insert(SessionRecord s) throws StorageException {
        db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO sessions (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, s.id());
                ps.setString(2, s.projectRoot());
                ps.setString(3, s.workspaceRoot());
                ps.setInt(4, s.isolated() ? 1 : 0);
                ps.setString(5, s.mode());
                ps.setString(6, s.permissionMode());
                ps.setInt(7, s.unattended() ? 1 : 0);
                ps.setLong(8, s.createdAt());
                ps.setLong(9, s.updatedAt());
                ps.setObject(10, s.archivedAt());
                return ps.executeUpdate();
            }
        });
    }

    /** Throws while the database's file is found deleted or replaced ({@link Database#requireIntact}). */
    public void requireIntact() throws StorageException {
        db.requireIntact();
    }

    public Optional<SessionRecord> find(String id) throws StorageException {
        return db.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM sessions WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(row(rs)) : Optional.empty();
                }
            }
        });
    }

    /** All sessions, newest first. */
    public List<SessionRecord> list() throws StorageException {
        return db.read(c -> {
            List<SessionRecord> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + COLUMNS + " FROM sessions ORDER BY created_at DESC, id");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs));
                }
            }
            return out;
        });
    }

    /** The ids of every stored session. */
    public List<String> ids() throws StorageException {
        return db.read(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM sessions");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        });
    }

    /** Sets mode and permission mode; false when the session does not exist. */
    public boolean configure(String id, String mode, String permissionMode, long now) throws StorageException {
        return db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE sessions SET mode = ?, permission_mode = ?, updated_at = ? WHERE id = ?")) {
                ps.setString(1, mode);
                ps.setString(2, permissionMode);
                ps.setLong(3, now);
                ps.setString(4, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    public boolean archive(String id, long now) throws StorageException {
        return db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE sessions SET archived_at = COALESCE(archived_at, ?), updated_at = ? WHERE id = ?")) {
                ps.setLong(1, now);
                ps.setLong(2, now);
                ps.setString(3, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    public boolean delete(String id) throws StorageException {
        return db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM sessions WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    private static SessionRecord row(ResultSet rs) throws SQLException {
        long archived = rs.getLong(10);
        Long archivedAt = rs.wasNull() ? null : archived;
        return new SessionRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4) == 1,
                rs.getString(5), rs.getString(6), rs.getInt(7) == 1, rs.getLong(8), rs.getLong(9), archivedAt);
    }
}
