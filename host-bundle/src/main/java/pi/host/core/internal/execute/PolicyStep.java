package pi.host.core.internal.execute;

import pi.host.api.ErrorCode;
import pi.host.core.internal.approval.SessionGrants;
import pi.host.core.internal.policy.Decision;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.policy.PermissionModes;
import pi.host.core.internal.policy.Policy;
import pi.host.core.internal.policy.PolicyInput;
import pi.host.core.internal.policy.Verdict;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.StorageException;

/**
 * The permission policy (spec §4a, §6): risk × permission mode × the call's paths × the session's
 * grants → allow, ask or deny, with the rule and source for the audit row. The permission mode is the
 * delegate definition's explicit scope, else the session's, else the global default, else ask; an
 * unknown stored value denies.
 */
final class PolicyStep implements Step {

    private final SettingsService settings;
    private final SessionGrants grants;

    PolicyStep(SettingsService settings, SessionGrants grants) {
        this.settings = settings;
        this.grants = grants;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        PermissionMode mode;
        try {
            mode = e.delegation.permission() != null ? e.delegation.permission()
                    : PermissionModes.effective(e.session.permissionMode(), settings.defaultPermissionMode())
                            .orElse(null);
        } catch (StorageException ex) {
            return call.fail(ErrorCode.STORAGE_ERROR, "the settings cannot be read: " + ex.getMessage());
        }
        e.permissionMode = mode;
        String name = call.request.name();
        // the rug-pull guard: a grant given for another definition of an MCP tool is dropped, and the card says so
        boolean redefined = grants.dropIfRedefined(e.session.id(), name, e.tool.definitionHash());
        boolean covered = e.scope == null ? grants.coversRoots(e.session.id(), name)
                : grants.covers(e.session.id(), e.scope);
        Decision d = Policy.decide(new PolicyInput(name, e.tool.kind(), e.tool.risk(), mode, e.outside, e.control,
                e.scratchTarget, covered, e.visualizationTarget));
        if (redefined && d.verdict() == Verdict.ASK) {
            d = new Decision(d.verdict(), d.rule(), d.source(), Policy.MCP_DEFINITION_CHANGED_REASON);
        }
        e.decision = d;
        if (d.verdict() == Verdict.DENY) {
            return call.deny(ErrorCode.TOOL_DENIED, d.rule(), d.source(), "denied by policy: " + d.reason());
        }
        call.decided(d.verdict() == Verdict.ALLOW ? "allow" : "ask", d.rule(), d.source());
        return null;
    }
}
