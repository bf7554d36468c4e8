package pi.host.core.internal.store;

import com.fasterxml.jackson.annotation.JsonRawValue;

/**
 * One audit row (spec §9): who called what, what was decided, how long each part took, and how it ended.
 *
 * @param id row id (0 before it is stored)
 * @param at epoch millis of the call's start
 * @param externalPath outside-path classification: null (no explicit outside path), "allowed" or "denied"
 * @param decision allow, deny, mode-deny, error (the call never reached policy)
 * @param rule the policy rule id, e.g. "edit.ask"
 * @param source what produced the decision, e.g. "user", "permission-mode:auto", "session-grant"
 * @param prompted true when a permission card was shown
 * @param definitionHash the called MCP tool's definition hash (rug-pull guard), or null
 * @param paths every path the call declared, as a JSON array of {@code {path, root, access}} (display
 *     path, the root it resolved under, what the call does there), or null when it declared none or
 *     never got as far as resolving them
 */
public record AuditRecord(long id, long at, String sessionId, String turnId, String toolCallId, String toolName,
        String traceId, String delegate, String argsHash, String argsPreview, String externalPath, String decision,
        String rule, String source, boolean prompted, double permissionWaitMs, double durationMs, double overheadMs,
        double totalMs, boolean ok, String errorCode, String definitionHash, @JsonRawValue String paths) {

    /** A row without a definition hash or declared paths. */
    public AuditRecord(long id, long at, String sessionId, String turnId, String toolCallId, String toolName,
            String traceId, String delegate, String argsHash, String argsPreview, String externalPath,
            String decision, String rule, String source, boolean prompted, double permissionWaitMs,
            double durationMs, double overheadMs, double totalMs, boolean ok, String errorCode) {
        this(id, at, sessionId, turnId, toolCallId, toolName, traceId, delegate, argsHash, argsPreview, externalPath,
                decision, rule, source, prompted, permissionWaitMs, durationMs, overheadMs, totalMs, ok, errorCode,
                null, null);
    }
}
