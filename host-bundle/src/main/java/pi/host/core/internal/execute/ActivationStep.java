package pi.host.core.internal.execute;

import pi.host.api.ErrorCode;
import pi.host.core.internal.catalog.Activations;

/**
 * A deferred tool runs only once ToolSearch or a composer selection activated it this prompt (spec
 * §2.1); a delegate has no ToolSearch, so the tool set fixed by its definition counts as activated.
 */
final class ActivationStep implements Step {

    private final Activations activations;

    ActivationStep(Activations activations) {
        this.activations = activations;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        if (e.tool.deferred() && !e.delegation.inScope()
                && !activations.isActive(e.session.id(), call.request.name())) {
            return call.deny(ErrorCode.TOOL_NOT_ACTIVE, "catalog.not-active", "activation", call.request.name()
                    + " is an on-demand tool that is not active; call ToolSearch with its name first");
        }
        return null;
    }
}
