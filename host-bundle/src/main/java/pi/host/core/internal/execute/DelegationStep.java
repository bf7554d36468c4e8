package pi.host.core.internal.execute;

import pi.host.core.internal.delegation.DelegateScope;

/**
 * Delegation (spec §10.2): Task needs a subagent definition; a delegate stays inside the tools the host
 * resolves from its definition, and its permission scope is the definition's own, before any card.
 */
final class DelegationStep implements Step {

    private final DelegateScope delegates;

    DelegationStep(DelegateScope delegates) {
        this.delegates = delegates;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        ExecuteRequest.Delegate d = call.request.delegate();
        DelegateScope.Verdict verdict = delegates.check(e.session, e.mode, call.request.name(),
                d == null ? null : d.name(), d == null ? null : d.source());
        if (verdict.refused()) {
            return call.deny(verdict.code(), verdict.rule(), "delegate-scope", verdict.message());
        }
        e.delegation = verdict;
        return null;
    }
}
