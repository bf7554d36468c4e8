package pi.host.core.internal.store;

import java.util.List;

/**
 * The schema, as ordered migrations. Each runs in one transaction with the {@code user_version}
 * bump, so a failed migration leaves the previous version authoritative. Never edit a released
 * migration: add the next one.
 */
final class Migrations {

    /** One step from {@code version - 1} to {@code version}. */
    record Migration(int version, List<String> statements) {
    }

    static final List<Migration> ALL = List.of(
            new Migration(1, List.of(
                    "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                    "CREATE TABLE sessions ("
                            + " id TEXT PRIMARY KEY,"
                            + " project_root TEXT,"
                            + " workspace_root TEXT NOT NULL,"
                            + " isolated INTEGER NOT NULL DEFAULT 0,"
                            + " mode TEXT NOT NULL DEFAULT 'agent',"
                            + " permission_mode TEXT NOT NULL DEFAULT 'inherit',"
                            + " unattended INTEGER NOT NULL DEFAULT 0,"
                            + " created_at INTEGER NOT NULL,"
                            + " updated_at INTEGER NOT NULL,"
                            + " archived_at INTEGER)",
                    "CREATE TABLE audit ("
                            + " id INTEGER PRIMARY KEY,"
                            + " at INTEGER NOT NULL,"
                            + " session_id TEXT,"
                            + " turn_id TEXT,"
                            + " tool_call_id TEXT,"
                            + " tool_name TEXT NOT NULL,"
                            + " trace_id TEXT NOT NULL,"
                            + " delegate TEXT,"
                            + " args_hash TEXT,"
                            + " args_preview TEXT,"
                            + " external_path TEXT,"
                            + " decision TEXT NOT NULL,"
                            + " rule TEXT,"
                            + " source TEXT,"
                            + " prompted INTEGER NOT NULL,"
                            + " permission_wait_ms REAL NOT NULL,"
                            + " duration_ms REAL NOT NULL,"
                            + " overhead_ms REAL NOT NULL,"
                            + " total_ms REAL NOT NULL,"
                            + " ok INTEGER NOT NULL,"
                            + " error_code TEXT)",
                    "CREATE INDEX audit_by_session ON audit(session_id, id)",
                    "CREATE INDEX audit_by_tool ON audit(tool_name, id)")),
            // TodoWrite's checklist: the full ordered snapshot, replaced as a whole
            new Migration(2, List.of(
                    "CREATE TABLE todos ("
                            + " session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
                            + " position INTEGER NOT NULL,"
                            + " content TEXT NOT NULL,"
                            + " status TEXT NOT NULL,"
                            + " PRIMARY KEY (session_id, position))")),
            // plan/goal approvals (ADR 0053): one row per SubmitPlan/SubmitGoal, resolved once;
            // pending rows left by a previous host become interrupted at start-up, never replayed
            new Migration(3, List.of(
                    "CREATE TABLE plan_approvals ("
                            + " id TEXT PRIMARY KEY,"
                            + " session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
                            + " turn_id TEXT,"
                            + " tool_call_id TEXT,"
                            + " kind TEXT NOT NULL CHECK (kind IN ('plan', 'goal')),"
                            + " artifact_path TEXT NOT NULL,"
                            + " status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'interrupted')),"
                            + " permission_mode TEXT,"
                            + " created_at INTEGER NOT NULL,"
                            + " resolved_at INTEGER)",
                    "CREATE INDEX plan_approvals_by_status ON plan_approvals(status, session_id)")),
            // the user's plugin grants (agent.tool.register), keyed by plugin id: they outlive the bundle,
            // so a reinstalled or updated plugin keeps its grant until the user revokes it
            new Migration(4, List.of(
                    "CREATE TABLE plugin_grants ("
                            + " plugin_id TEXT NOT NULL,"
                            + " capability TEXT NOT NULL,"
                            + " granted_at INTEGER NOT NULL,"
                            + " PRIMARY KEY (plugin_id, capability))")),
            // how many rows of each audit journal segment are in the audit table, updated in the same
            // transaction as the rows: a segment read back after a crash skips those
            new Migration(5, List.of(
                    "CREATE TABLE audit_journal ("
                            + " segment TEXT PRIMARY KEY,"
                            + " copied INTEGER NOT NULL)")),
            // the definition hash of the MCP tool a row is about (rug-pull guard): which description and
            // schema the user's decision applied to
            new Migration(6, List.of(
                    "ALTER TABLE audit ADD COLUMN definition_hash TEXT")),
            // every path a call declared, with its root and access (issue 13.6), as a JSON array
            new Migration(7, List.of("ALTER TABLE audit ADD COLUMN paths TEXT")),
            // isolated sessions' and write delegates' git worktrees (issue 17): where each is, its branch and
            // registration, the session's PI_PORT block (unique while its row lives) and the setup command's outcome
            new Migration(8, List.of(
                    "CREATE TABLE worktrees ("
                            + " id TEXT PRIMARY KEY,"
                            + " session_id TEXT NOT NULL,"
                            + " delegation_id TEXT,"
                            + " repository TEXT NOT NULL,"
                            + " subdir TEXT NOT NULL,"
                            + " path TEXT NOT NULL,"
                            + " branch TEXT NOT NULL,"
                            + " admin_dir TEXT NOT NULL,"
                            + " common_dir TEXT NOT NULL,"
                            + " base TEXT NOT NULL,"
                            + " port INTEGER UNIQUE,"
                            + " setup TEXT,"
                            + " created_at INTEGER NOT NULL)",
                    "CREATE INDEX worktrees_by_session ON worktrees(session_id)")));

    private Migrations() {
    }

    /** The version a fully migrated database has. */
    static int latest() {
        return ALL.get(ALL.size() - 1).version();
    }
}
