package pi.host.core.internal.plan;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import pi.host.core.internal.store.Database;
import pi.host.core.internal.store.StorageException;

/**
 * The {@code plan_approvals} table and the transactions that move a session between Agent and
 * Plan/Goal. Every state change is one {@link Database#write} transaction; a refusal inside one
 * ({@link Refused}) rolls it back like any other failure.
 */
public final class PlanStore {

    /** A plan/goal approval as stored. */
    public record Approval(String id, String sessionId, String turnId, String toolCallId, String kind,
            String artifactPath, String status, String permissionMode, long createdAt, Long resolvedAt) {
    }

    /** A resolution or transition the stored state does not allow; the transaction is rolled back. */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** Writes the audit row of a resolution on the transaction's connection (replaceable in tests). */
    @FunctionalInterface
    interface AuditInsert {
        void insert(Connection c, Approval approval, String decision, String permissionMode, long now)
                throws SQLException;
    }

    private static final String COLUMNS = "id, session_id, turn_id, tool_call_id, kind, artifact_path, status,"
            + " permission_mode, created_at, resolved_at";

    private final Database db;
    private final AuditInsert audit;

    public PlanStore(Database db) {
        this(db, PlanStore::auditRow);
    }

    PlanStore(Database db, AuditInsert audit) {
        this.db = db;
        this.audit = audit;
    }

    /**
     * Agent → {@code mode}: validates the durable mode inside the transaction (it must be agent) and
     * sets it. Refused when the session is missing or not in Agent.
     */
    public void enter(String sessionId, String mode, long now) throws StorageException {
        db.write(c -> {
            String current = mode(c, sessionId);
            if (!"agent".equals(current)) {
                throw new Refused("the session is in " + current + " mode, not agent");
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE sessions SET mode = ?, updated_at = ? WHERE id = ? AND mode = 'agent'")) {
                ps.setString(1, mode);
                ps.setLong(2, now);
                ps.setString(3, sessionId);
                if (ps.executeUpdate() != 1) {
                    throw new Refused("the session left agent mode concurrently");
                }
            }
            return null;
        });
    }

    /**
     * Inserts a pending approval after checking, in the same transaction, that the session is still
     * in the approval's mode and has no other pending approval.
     */
    public void insertPending(Approval a) throws StorageException {
        db.write(c -> {
            String current = mode(c, a.sessionId());
            if (!a.kind().equals(current)) {
                throw new Refused("the session is in " + current + " mode, not " + a.kind());
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id FROM plan_approvals WHERE session_id = ? AND status = 'pending'")) {
                ps.setString(1, a.sessionId());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        throw new Refused("approval " + rs.getString(1) + " of this session is still pending;"
                                + " wait for the user to approve or reject it");
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO plan_approvals (" + COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, 'pending', NULL, ?, NULL)")) {
                ps.setString(1, a.id());
                ps.setString(2, a.sessionId());
                ps.setString(3, a.turnId());
                ps.setString(4, a.toolCallId());
                ps.setString(5, a.kind());
                ps.setString(6, a.artifactPath());
                ps.setLong(7, a.createdAt());
                ps.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Resolves a pending approval in one transaction: the row (pending → approved/rejected), on
     * approve the session (mode → agent, permission_mode → {@code permissionMode}), and an audit row.
     * Refused (and nothing changed) when the approval is unknown, belongs to another session than
     * {@code expectedSession} (when given), is no longer pending, or its session left the mode.
     */
    public Approval resolve(String approvalId, String expectedSession, boolean approve, String permissionMode,
            long now) throws StorageException {
        return db.write(c -> {
            Approval a = find(c, approvalId).orElseThrow(() -> new Refused("no plan approval " + approvalId));
            if (expectedSession != null && !expectedSession.equals(a.sessionId())) {
                throw new Refused("approval " + approvalId + " does not belong to session " + expectedSession);
            }
            if (!"pending".equals(a.status())) {
                throw new Refused("approval " + approvalId + " is " + a.status() + ", not pending");
            }
            String status = approve ? "approved" : "rejected";
            try (PreparedStatement ps = c.prepareStatement("UPDATE plan_approvals SET status = ?,"
                    + " permission_mode = ?, resolved_at = ? WHERE id = ? AND status = 'pending'")) {
                ps.setString(1, status);
                ps.setString(2, approve ? permissionMode : null);
                ps.setLong(3, now);
                ps.setString(4, approvalId);
                if (ps.executeUpdate() != 1) {
                    throw new Refused("approval " + approvalId + " was resolved concurrently");
                }
            }
            if (approve) {
                try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET mode = 'agent',"
                        + " permission_mode = ?, updated_at = ? WHERE id = ? AND mode = ?")) {
                    ps.setString(1, permissionMode);
                    ps.setLong(2, now);
                    ps.setString(3, a.sessionId());
                    ps.setString(4, a.kind());
                    if (ps.executeUpdate() != 1) {
                        throw new Refused("session " + a.sessionId() + " is no longer in " + a.kind() + " mode");
                    }
                }
            }
            audit.insert(c, a, status, approve ? permissionMode : null, now);
            return new Approval(a.id(), a.sessionId(), a.turnId(), a.toolCallId(), a.kind(), a.artifactPath(),
                    status, approve ? permissionMode : null, a.createdAt(), now);
        });
    }

    /** The start-up fence: every pending approval becomes interrupted (never replayed). Returns how many. */
    public int interruptPending(long now) throws StorageException {
        return db.write(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE plan_approvals SET status = 'interrupted', resolved_at = ? WHERE status = 'pending'")) {
                ps.setLong(1, now);
                return ps.executeUpdate();
            }
        });
    }

    /** Pending approvals, oldest first; {@code sessionId} null = every session. */
    public List<Approval> pending(String sessionId) throws StorageException {
        return db.read(c -> {
            List<Approval> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM plan_approvals"
                    + " WHERE status = 'pending' AND (? IS NULL OR session_id = ?) ORDER BY created_at, id")) {
                ps.setString(1, sessionId);
                ps.setString(2, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(row(rs));
                    }
                }
            }
            return out;
        });
    }

    public Optional<Approval> find(String id) throws StorageException {
        return db.read(c -> find(c, id));
    }

    private static Optional<Approval> find(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM plan_approvals WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    private static String mode(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT mode FROM sessions WHERE id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new Refused("no session " + sessionId);
                }
                return rs.getString(1);
            }
        }
    }

    private static Approval row(ResultSet rs) throws SQLException {
        long resolved = rs.getLong(10);
        Long resolvedAt = rs.wasNull() ? null : resolved;
        return new Approval(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getLong(9), resolvedAt);
    }

    /** The audit row of a resolution: tool_name plans.resolve, trace_id the approval id. */
    static void auditRow(Connection c, Approval a, String decision, String permissionMode, long now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit (at, session_id, turn_id, tool_call_id,"
                + " tool_name, trace_id, decision, rule, source, prompted, permission_wait_ms, duration_ms,"
                + " overhead_ms, total_ms, ok) VALUES (?, ?, ?, ?, 'plans.resolve', ?, ?, ?, 'user', 1, 0, 0, 0, 0, 1)")) {
            ps.setLong(1, now);
            ps.setString(2, a.sessionId());
            ps.setString(3, a.turnId());
            ps.setString(4, a.toolCallId());
            ps.setString(5, a.id());
            ps.setString(6, decision);
            ps.setString(7, a.kind() + "." + decision + (permissionMode == null ? "" : ":" + permissionMode));
            ps.executeUpdate();
        }
    }
}
