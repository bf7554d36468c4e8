package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.RegisteredTool;

class PlanActionStepTest extends StepTest {

    final RegisteredTool git = Registered.plugin("plugin_git_x", List.of("status", "commit"), List.of("status"),
            StepKit.ECHO);

    private ResultEnvelope run(OperatingMode mode, String args) throws Exception {
        CallState c = kit.call(kit.session("agent", "ask"), git, args);
        c.first.mode = mode;
        return new PlanActionStep().apply(c, c.first);
    }

    @Test
    void inPlanOnlyPlanSafeActionsRun() throws Exception {
        assertThat(run(OperatingMode.PLAN, "{\"action\":\"status\"}")).isNull();
        assertThat(run(OperatingMode.PLAN, "{\"action\":\"commit\"}").errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(run(OperatingMode.GOAL, "{\"action\":\"Status\"}").errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED);
        assertThat(run(OperatingMode.GOAL, "{}").errorCode()).isEqualTo(ErrorCode.PERMISSION_DENIED);
    }

    @Test
    void inAgentEveryDeclaredActionIsLeftToTheRuntime() throws Exception {
        assertThat(run(OperatingMode.AGENT, "{\"action\":\"commit\"}")).isNull();
    }
}
