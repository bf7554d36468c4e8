package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.spi.ToolKind;

/**
 * In Plan and Goal a plugin call's {@code action} must be one of the tool's plan-safe actions (ADR 0211);
 * the plugin runtime refuses actions outside the declared ones in every mode. Checked again after a
 * wait, since the mode may have changed.
 */
final class PlanActionStep implements Step {

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        if (e.tool.kind() != ToolKind.PLUGIN || e.mode == OperatingMode.AGENT) {
            return null;
        }
        JsonNode action = call.arguments.get("action");
        if (action == null || !action.isTextual() || !e.tool.planSafeActions().contains(action.textValue())) {
            return call.deny(ErrorCode.PERMISSION_DENIED, "plan.action", "planSafeActions", "action " + action
                    + " of " + call.request.name() + " is not plan-safe; allowed in " + e.mode.wire() + " mode: "
                    + e.tool.planSafeActions());
        }
        return null;
    }
}
