package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import pi.host.core.internal.audit.AuditLog;
import pi.host.core.internal.store.AuditRecord;

/** What the pipeline learns about one call as it goes, for its audit row, and how the call ends. */
final class CallState {

    final ExecuteRequest request;
    final String traceId;
    final long startedAt = System.currentTimeMillis();
    final long startNanos = System.nanoTime();

    JsonNode redactedArguments;
    /** null (no explicit outside path), "allowed" or "denied". */
    String externalPath;
    /** allow, deny, mode-deny, or error (the call never reached policy). */
    String decision = "error";
    String rule;
    String source;
    boolean prompted;
    /** The MCP tool's definition hash (rug-pull guard), or null. */
    String definitionHash;
    long waitNanos;
    long bodyNanos;
    /** How the call ends; each step that holds something until then adds its release. */
    CallEnding ending;

    CallState(ExecuteRequest request, String traceId) {
        this.request = request;
        this.traceId = traceId;
    }

    void decided(String decision, String rule, String source) {
        this.decision = decision;
        this.rule = rule;
        this.source = source;
    }

    AuditRecord audit(ResultEnvelope result) {
        double total = (System.nanoTime() - startNanos) / 1e6;
        double wait = waitNanos / 1e6;
        double body = bodyNanos / 1e6;
        String delegate = request.delegate() == null ? null : request.delegate().name();
        AuditLog.Arguments args = redactedArguments == null ? null : AuditLog.describe(redactedArguments);
        return new AuditRecord(0, startedAt, request.sessionId(), request.turnId(), request.toolCallId(),
                request.name(), traceId, delegate, args == null ? null : args.hash(),
                args == null ? null : args.preview(), externalPath, decision, rule,
                source, prompted, wait, body, Math.max(0, total - wait - body), total, result.ok(),
                result.errorCode() == null ? null : result.errorCode().name(), definitionHash);
    }
}
