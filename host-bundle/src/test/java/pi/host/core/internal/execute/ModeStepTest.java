package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.ToolKind;

class ModeStepTest extends StepTest {


    private ResultEnvelope run(String mode, CallState call, Evaluation e) throws Exception {
        e.session = kit.session(mode, "auto");
        return new ModeStep().apply(call, e);
    }

    @Test
    void theMatrixAdmitsWhatTheModeAllows() throws Exception {
        SessionRecord s = kit.session("agent", "auto");
        CallState call = kit.call(s, StepKit.builtin("Write", ToolKind.EDIT, Risk.HIGH, true), "{}");
        Evaluation e = new Evaluation();
        e.tool = call.first.tool;
        assertThat(run("agent", call, e)).isNull();
        assertThat(e.mode).isEqualTo(OperatingMode.AGENT);
    }

    @Test
    void planHardDeniesAWriteWhateverThePermissionModeAndAuditsItAsAModeDenial() throws Exception {
        SessionRecord s = kit.session("plan", "auto");
        CallState call = kit.call(s, StepKit.builtin("Write", ToolKind.EDIT, Risk.HIGH, true), "{}");
        Evaluation e = new Evaluation();
        e.tool = call.first.tool;
        assertThat(run("plan", call, e).errorCode()).isEqualTo(ErrorCode.MODE_DENIED);
        assertThat(call.decision).isEqualTo("mode-deny");
        assertThat(call.source).isEqualTo("mode:plan");
    }

    @Test
    void aPluginWithoutPlanSafeActionsIsDisabledInGoal() throws Exception {
        SessionRecord s = kit.session("goal", "auto");
        CallState call = kit.call(s, Registered.plugin("plugin_p_t", List.of("x"), List.of(), StepKit.ECHO), "{}");
        Evaluation e = new Evaluation();
        e.tool = call.first.tool;
        assertThat(run("goal", call, e).errorCode()).isEqualTo(ErrorCode.PLUGIN_DISABLED_IN_PLAN);
    }
}
