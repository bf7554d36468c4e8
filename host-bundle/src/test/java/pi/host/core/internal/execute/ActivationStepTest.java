package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.core.internal.catalog.Activations;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.store.SessionRecord;

class ActivationStepTest extends StepTest {

    final Activations activations = new Activations();

    @Test
    void aDeferredToolRunsOnlyOnceActivated() throws Exception {
        SessionRecord s = kit.session("agent", "ask");
        CallState c = kit.call(s, Registered.plugin("plugin_p_t", List.of(), List.of(), StepKit.ECHO), "{}");
        ActivationStep step = new ActivationStep(activations);
        assertThat(step.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.TOOL_NOT_ACTIVE);
        assertThat(c.rule).isEqualTo("catalog.not-active");
        activations.activate(s.id(), List.of("plugin_p_t"));
        assertThat(step.apply(c, c.first)).isNull();
        activations.reset(s.id(), List.of()); // a new prompt that did not restore it
        assertThat(step.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.TOOL_NOT_ACTIVE);
    }
}
