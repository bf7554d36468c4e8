package pi.host.core.internal.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The {@code audit} table: append-only rows, queried newest first. */
public final class AuditStore {

    private static final String COLUMNS = "at, session_id, turn_id, tool_call_id, tool_name, trace_id, delegate,"
            + " args_hash, args_preview, external_path, decision, rule, source, prompted, permission_wait_ms,"
            + " duration_ms, overhead_ms, total_ms, ok, error_code, definition_hash, paths";

    private static final String INSERT = "INSERT INTO audit (" + COLUMNS
            + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

    private final Database db;

    public AuditStore(Database db) {
        this.db = db;
    }

    /** Throws while the database's file is found deleted or replaced ({@link Database#requireIntact}). */
    public void requireIntact() throws StorageException {
        db.requireIntact();
    }

    /**
     * Appends one row in its own transaction (the host's rows come through the audit journal and
     * {@link #copy}; this is for callers that write a row directly).
     */
    public void append(AuditRecord r) throws StorageException {
        copy(List.of(r), Map.of());
    }

    /**
     * Appends rows copied from the audit journal and records, in the same transaction, how many rows
     * of each named journal segment the table now holds.
     */
    public void copy(List<AuditRecord> rows, Map<String, Integer> copiedBySegment) throws StorageException {
        db.write(c -> {
            PreparedStatement ps = db.prepared(c, INSERT);
            for (AuditRecord r : rows) {
                bind(ps, r);
                ps.executeUpdate();
            }
            PreparedStatement progress = db.prepared(c, "INSERT INTO audit_journal (segment, copied) VALUES (?, ?)"
                    + " ON CONFLICT (segment) DO UPDATE SET copied = excluded.copied");
            for (Map.Entry<String, Integer> e : copiedBySegment.entrySet()) {
                progress.setString(1, e.getKey());
                progress.setInt(2, e.getValue());
                progress.executeUpdate();
            }
            return null;
        });
    }

    private static void bind(PreparedStatement ps, AuditRecord r) throws SQLException {
        int i = 1;
        ps.setLong(i++, r.at());
        ps.setString(i++, r.sessionId());
        ps.setString(i++, r.turnId());
        ps.setString(i++, r.toolCallId());
        ps.setString(i++, r.toolName());
        ps.setString(i++, r.traceId());
        ps.setString(i++, r.delegate());
        ps.setString(i++, r.argsHash());
        ps.setString(i++, r.argsPreview());
        ps.setString(i++, r.externalPath());
        ps.setString(i++, r.decision());
        ps.setString(i++, r.rule());
        ps.setString(i++, r.source());
        ps.setInt(i++, r.prompted() ? 1 : 0);
        ps.setDouble(i++, r.permissionWaitMs());
        ps.setDouble(i++, r.durationMs());
        ps.setDouble(i++, r.overheadMs());
        ps.setDouble(i++, r.totalMs());
        ps.setInt(i++, r.ok() ? 1 : 0);
        ps.setString(i++, r.errorCode());
        ps.setString(i++, r.definitionHash());
        ps.setString(i, r.paths());
    }

    /** How many rows of the journal segment {@code segment} the table holds (0 if none). */
    public int segmentProgress(String segment) throws StorageException {
        return db.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT copied FROM audit_journal WHERE segment = ?")) {
                ps.setString(1, segment);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getInt(1) : 0;
                }
            }
        });
    }

    /** Forgets the progress of journal segments that were deleted. */
    public void forgetSegments(Collection<String> segments) throws StorageException {
        db.write(c -> {
            PreparedStatement ps = db.prepared(c, "DELETE FROM audit_journal WHERE segment = ?");
            for (String s : segments) {
                ps.setString(1, s);
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** Rows matching the filters (null = any), newest first, at most {@code limit}. */
    public List<AuditRecord> query(String sessionId, String toolName, Long sinceMillis, int limit)
            throws StorageException {
        StringBuilder sql = new StringBuilder("SELECT id, " + COLUMNS + " FROM audit WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        if (sessionId != null) {
            sql.append(" AND session_id = ?");
            args.add(sessionId);
        }
        if (toolName != null) {
            sql.append(" AND tool_name = ?");
            args.add(toolName);
        }
        if (sinceMillis != null) {
            sql.append(" AND at >= ?");
            args.add(sinceMillis);
        }
        sql.append(" ORDER BY id DESC LIMIT ?");
        args.add(limit);
        return db.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                for (int i = 0; i < args.size(); i++) {
                    ps.setObject(i + 1, args.get(i));
                }
                List<AuditRecord> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(row(rs));
                    }
                }
                return out;
            }
        });
    }

    private static AuditRecord row(ResultSet rs) throws SQLException {
        int i = 1;
        return new AuditRecord(rs.getLong(i++), rs.getLong(i++), rs.getString(i++), rs.getString(i++),
                rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++),
                rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++),
                rs.getInt(i++) == 1, rs.getDouble(i++), rs.getDouble(i++), rs.getDouble(i++), rs.getDouble(i++),
                rs.getInt(i++) == 1, rs.getString(i++), rs.getString(i++), rs.getString(i));
    }
}
