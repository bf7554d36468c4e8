package pi.host.core.internal.execute;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.Verdict;
import pi.host.core.internal.store.SessionRecord;

/**
 * Re-evaluation right before execution (issue 13.4): a card can wait for minutes and admission for as
 * long as the session's previous mutation runs, and meanwhile the session can be deleted or switched to
 * Plan, the permission mode or a delegate's definition can change, the tool can be registered again and
 * a link can be swapped under a path. So every judging step runs again on a fresh {@link Evaluation};
 * the first refusal is the answer, with the code the check would have given before the card. On top of
 * them: the session must still be bound to the same roots and the tool be the same registration, and a
 * call that now needs a card runs only if the user allowed this call on its card.
 *
 * <p>A call that waited for nothing (no card, admission at once) was judged microseconds ago: judging
 * it again would close no window that is not left open between any re-check and the tool's start, so
 * such a call goes straight on (the warm path keeps its cost).
 */
final class RecheckStep implements Step {

    private final List<Step> judging;

    /**
     * @param session the session step
     * @param roots the roots step (an isolated session's worktree must still be there)
     * @param catalog the catalog step
     * @param rest the other steps that judge changeable state, in pipeline order
     */
    RecheckStep(Step session, Step roots, Step catalog, List<Step> rest) {
        Step binding = (call, e) -> sameBinding(call.first.session, e.session) ? null
                : changed(call, "recheck.binding", "the session's roots changed while the call waited; nothing ran");
        Step sameRoots = (call, e) -> Objects.equals(call.first.workspaceRoot, e.workspaceRoot)
                && Objects.equals(call.first.visualizationDir, e.visualizationDir) ? null
                : changed(call, "recheck.roots", "the call's roots changed while it waited; nothing ran");
        Step registration = (call, e) -> e.tool.serviceId() == call.first.tool.serviceId() ? null
                : changed(call, "recheck.tool", call.request.name() + " was registered again while the call waited;"
                        + " nothing ran");
        List<Step> all = new ArrayList<>(List.of(session, binding, roots, sameRoots, catalog, registration));
        all.addAll(rest);
        this.judging = List.copyOf(all);
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation first) {
        if (!call.prompted && !call.queued) {
            return null;
        }
        Evaluation again = new Evaluation();
        String decision = call.decision;
        String rule = call.rule;
        String source = call.source;
        for (Step step : judging) {
            ResultEnvelope refused = step.apply(call, again);
            if (refused != null) {
                if (call.decision.equals(decision) && Objects.equals(call.source, source)) {
                    // a step that refuses without a decision of its own (the session is gone, a path moved)
                    call.decided("deny", "recheck." + refused.errorCode().name().toLowerCase(Locale.ROOT), "recheck");
                } else if (call.source == null || !call.source.startsWith("recheck")) {
                    call.source = "recheck:" + call.source;
                }
                return refused;
            }
        }
        if (again.decision.verdict() == Verdict.ASK && !call.userAllowed) {
            // allowed without a card before, it would need one now: it was not what the user let run
            call.decided("deny", again.decision.rule(), "recheck:" + again.decision.source());
            return call.fail(ErrorCode.TOOL_DENIED, call.request.name() + " now needs approval (" + again.decision.reason()
                    + "): the permission mode or the session changed while the call waited; nothing ran");
        }
        call.decided(decision, rule, source); // the decision that let the call through stands
        call.last = again;
        return null;
    }

    private static ResultEnvelope changed(CallState call, String rule, String message) {
        call.decided("deny", rule, "recheck");
        return call.fail(ErrorCode.TOOL_DENIED, message);
    }

    private static boolean sameBinding(SessionRecord a, SessionRecord b) {
        return Objects.equals(a.workspaceRoot(), b.workspaceRoot()) && Objects.equals(a.projectRoot(), b.projectRoot())
                && a.isolated() == b.isolated();
    }
}
