package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import pi.host.api.ErrorCode;
import pi.host.core.internal.audit.AuditLog;
import pi.host.core.internal.store.AuditRecord;
import pi.host.spi.Invocation;

/** What the pipeline learns about one call as it goes, for its steps and its audit row, and how the call ends. */
final class CallState {

    final ExecuteRequest request;
    final String traceId;
    final long startedAt = System.currentTimeMillis();
    final long startNanos = System.nanoTime();
    /** The evaluation before the card; {@link #last} is the one the tool runs under. */
    final Evaluation first = new Evaluation();
    Evaluation last = first;

    JsonNode redactedArguments;
    CallCancellation cancel;
    /** The arguments with aliases folded, validated. */
    ObjectNode arguments;
    /** The same, as the provider sees them. */
    Map<String, Object> plainArguments;
    Invocation invocation;
    /** True once the user allowed this call on its card. */
    boolean userAllowed;
    /** True when admission had to wait for another call (the session's permit, a slot or a path lock). */
    boolean queued;
    /** The declared paths as the audit row lists them (JSON), or null. */
    String auditPaths;
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

    /** A failure of this call with one message. */
    ResultEnvelope fail(ErrorCode code, String message) {
        return ResultEnvelope.error(code, message, traceId);
    }

    /** A denial: recorded for the audit row, answered with {@code code}. */
    ResultEnvelope deny(ErrorCode code, String rule, String source, String message) {
        decided(code == ErrorCode.MODE_DENIED || code == ErrorCode.PLUGIN_DISABLED_IN_PLAN ? "mode-deny" : "deny",
                rule, source);
        return fail(code, message);
    }

    /**
     * The answer to a call whose cancellation ended a wait: SESSION_NOT_FOUND when its session was
     * deleted meanwhile (the code the first check would give now), else TOOL_ABORTED.
     */
    ResultEnvelope cancelled(String where) {
        if (CancellationRegistry.SESSION_DELETED.equals(cancel.reason())) {
            return fail(ErrorCode.SESSION_NOT_FOUND, "the session was deleted while the call waited " + where
                    + "; nothing ran");
        }
        return fail(ErrorCode.TOOL_ABORTED, "the call was aborted " + where);
    }

    AuditRecord audit(ResultEnvelope result) {
        double total = (System.nanoTime() - startNanos) / 1e6;
        double wait = waitNanos / 1e6;
        double body = bodyNanos / 1e6;
        String delegate = request.delegate() == null ? null : request.delegate().name();
        AuditLog.Arguments args = redactedArguments == null ? null : AuditLog.describe(redactedArguments);
        // an explicit outside path is "allowed" exactly when the call was let through, else "denied"
        String externalPath = !last.outside && !first.outside ? null
                : "allow".equals(decision) ? "allowed" : "denied";
        return new AuditRecord(0, startedAt, request.sessionId(), request.turnId(), request.toolCallId(),
                request.name(), traceId, delegate, args == null ? null : args.hash(),
                args == null ? null : args.preview(), externalPath, decision, rule,
                source, prompted, wait, body, Math.max(0, total - wait - body), total, result.ok(),
                result.errorCode() == null ? null : result.errorCode().name(), definitionHash, auditPaths);
    }
}
