package pi.host.core.internal.plan;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code EnterPlanMode}: Agent → Plan (the mode matrix admits it only in Agent). The host validates the
 * durable mode in the transaction that changes it and announces {@code session.state}. It must be
 * the only call in its batch (tools.executeBatch).
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.ENTER_PLAN, solo = true)
@Tool(name = "EnterPlanMode", risk = Risk.LOW, timeoutMs = 30_000)
public final class EnterPlanModeTool implements ToolProvider {

    private final PlanService plans;

    @Activate
    public EnterPlanModeTool(@Reference PlanService plans) {
        this.plans = plans;
    }

    @Override
    public String description() {
        return "Switch this session to plan mode: investigate with read-only tools, then submit the plan with"
                + " SubmitPlan for the user to approve. Call it alone, not with other tools.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return plans.enter(call, "plan");
    }
}
