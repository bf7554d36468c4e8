package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;

class CancellationStepTest {

    private final CancellationRegistry registry = new CancellationRegistry();
    private final CancellationStep step = new CancellationStep(registry);

    private static CallState call(String callId) {
        CallState c = new CallState(new ExecuteRequest("s", "t", callId, "Write", JsonNodeFactory.instance.objectNode(),
                null, null), "tr");
        c.ending = new CallEnding(r -> { });
        return c;
    }

    @Test
    void theCallIsRegisteredUntilItEnds() {
        CallState c = call("c1");
        assertThat(step.apply(c, c.first)).isNull();
        assertThat(registry.abort("s", "c1", "Write")).isTrue();
        assertThat(c.cancel.isCancelled()).isTrue();
        c.ending.end(c.fail(ErrorCode.TOOL_ABORTED, "x"));
        assertThat(registry.abortUnlessRunning("s", "c1", "Write")).as("gone with the call's end").isFalse();
    }

    @Test
    void aCallIdAlreadyInFlightIsRefused() {
        CallState a = call("c1");
        step.apply(a, a.first);
        CallState b = call("c1");
        assertThat(step.apply(b, b.first).errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void anAbortThatCameFirstEndsTheCallBeforeItStarts() {
        registry.abort("s", "c2", "Write");
        CallState c = call("c2");
        assertThat(step.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.TOOL_ABORTED);
    }
}
