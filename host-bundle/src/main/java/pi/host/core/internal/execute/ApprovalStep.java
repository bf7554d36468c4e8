package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import pi.host.api.ErrorCode;
import pi.host.api.ResolvedPath;
import pi.host.core.internal.approval.ApprovalService;
import pi.host.core.internal.approval.GrantScope;
import pi.host.core.internal.approval.PermissionRequest;
import pi.host.core.internal.approval.SessionGrants;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.policy.Verdict;
import pi.host.core.internal.registry.RegisteredTool;

/**
 * The permission card (spec §7) when the policy asks: it waits with no deadline for the user's decision,
 * an abort or the host's shutdown; no client attached is a denial (fail closed). The card says what the
 * call will do, the outside path it is about and exactly what allow-session will cover (issue 13.1);
 * an allow-session answer records that scope, nothing wider.
 */
final class ApprovalStep implements Step {

    private final ApprovalService approvals;
    private final SessionGrants grants;

    ApprovalStep(ApprovalService approvals, SessionGrants grants) {
        this.approvals = approvals;
        this.grants = grants;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        if (e.decision.verdict() != Verdict.ASK) {
            return null;
        }
        ExecuteRequest req = call.request;
        GrantScope scope = e.scope != null ? e.scope : GrantScope.roots(req.name());
        PermissionRequest card = new PermissionRequest(ApprovalService.newRequestId(), e.session.id(), req.turnId(),
                req.toolCallId(), req.name(), e.tool.risk().wire(), e.decision.reason(), call.redactedArguments,
                firstOutside(e.paths), req.delegate() == null ? null : req.delegate().name(), annotations(e.tool),
                System.currentTimeMillis(), scope.wire(), call.invocation.description());
        call.prompted = true;
        long asked = System.nanoTime();
        ApprovalService.Outcome outcome = approvals.ask(card, call.cancel);
        call.waitNanos = System.nanoTime() - asked;
        String rule = e.decision.rule();
        switch (outcome) {
            case ALLOWED_SESSION:
                grants.grant(e.session.id(), scope, e.tool.definitionHash());
                call.userAllowed = true;
                call.decided("allow", rule, "user:allow-session");
                return null;
            case ALLOWED_ONCE:
                call.userAllowed = true;
                call.decided("allow", rule, "user:allow-once");
                return null;
            case DENIED:
                call.decided("deny", rule, "user");
                return call.fail(ErrorCode.TOOL_DENIED, "user denied permission");
            case CANCELLED:
                call.decided("deny", rule, "cancelled");
                return call.cancelled("for permission");
            case SHUTDOWN:
                call.decided("deny", rule, "shutdown");
                return call.fail(ErrorCode.TOOL_DENIED, "the host is shutting down; nothing ran");
            case LIMIT:
                call.prompted = false; // no card was shown
                call.decided("deny", rule, "card-limit");
                return call.fail(ErrorCode.CARD_LIMIT, "the session already has " + approvals.maxPerSession()
                        + " permission cards waiting for the user; no card was shown and nothing ran");
            default:
                call.decided("deny", rule, "no-approver");
                return call.fail(ErrorCode.TOOL_DENIED,
                        "permission is required but no client is attached to approve; nothing ran");
        }
    }

    /** An MCP tool's declared annotations for its card (shown, never trusted), or null. */
    private static JsonNode annotations(RegisteredTool tool) {
        if (tool.annotations() == null) {
            return null;
        }
        try {
            return Json.mapper().readTree(tool.annotations());
        } catch (IOException e) {
            return null; // the bridge wrote it; a broken one is left off the card rather than failing the call
        }
    }

    /** The canonical outside path the card is about (the first, when a call names several), or null. */
    private static String firstOutside(List<ResolvedPath> paths) {
        for (ResolvedPath p : paths) {
            if (p.root() == ResolvedPath.Root.EXTERNAL) {
                return p.absolute().toString();
            }
        }
        return null;
    }
}
