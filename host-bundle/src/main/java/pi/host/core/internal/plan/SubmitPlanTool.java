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
 * {@code SubmitPlan}: writes the Markdown byte for byte (UTF-8) to a new {@code .pi/plan/*.md} in the
 * workspace root, records one pending approval and returns at once (status pending); the user
 * resolves it with {@code plans.resolve}. Only in Plan mode, and alone in its batch.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.SUBMIT_PLAN, solo = true)
@Tool(name = "SubmitPlan", risk = Risk.LOW, timeoutMs = 30_000)
public final class SubmitPlanTool implements ToolProvider {

    private final PlanService plans;

    @Activate
    public SubmitPlanTool(@Reference PlanService plans) {
        this.plans = plans;
    }

    @Override
    public String description() {
        return "Submit the plan (Markdown) for the user to approve or reject. The host saves it unchanged and"
                + " the session stays in plan mode until the user approves. Call it alone, not with other tools.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{\"plan\":{\"type\":\"string\",\"minLength\":1,"
                + "\"maxLength\":200000}},\"required\":[\"plan\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return plans.submit(call, "plan", (String) call.arguments().get("plan"));
    }
}
