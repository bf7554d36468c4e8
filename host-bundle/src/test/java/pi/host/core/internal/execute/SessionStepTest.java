package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.ToolKind;

class SessionStepTest extends StepTest {


    @Test
    void theCallGetsItsPersistedSession() throws Exception {
        SessionRecord s = kit.session("agent", "ask");
        CallState call = kit.call(s, StepKit.builtin("Read", ToolKind.READ, Risk.LOW, false), "{}");
        Evaluation e = new Evaluation();
        assertThat(new SessionStep(kit.sessions).apply(call, e)).isNull();
        assertThat(e.session).isEqualTo(s);
    }

    @Test
    void anUnknownOrDeletedSessionIsSessionNotFound() throws Exception {
        SessionRecord s = kit.session("agent", "ask");
        CallState call = kit.call(s, StepKit.builtin("Read", ToolKind.READ, Risk.LOW, false), "{}");
        kit.sessions.delete(s.id());
        ResultEnvelope r = new SessionStep(kit.sessions).apply(call, new Evaluation());
        assertThat(r.errorCode()).isEqualTo(ErrorCode.SESSION_NOT_FOUND);
    }

    @Test
    void aStoreThatCannotBeReadIsAStorageErrorNeverAFallback() throws Exception {
        SessionRecord s = kit.session("agent", "ask");
        CallState call = kit.call(s, StepKit.builtin("Read", ToolKind.READ, Risk.LOW, false), "{}");
        StepKit other = new StepKit(tmp.resolve("other"));
        other.close(); // a closed database: every read fails
        ResultEnvelope r = new SessionStep(other.sessions).apply(call, new Evaluation());
        assertThat(r.errorCode()).isEqualTo(ErrorCode.STORAGE_ERROR);
    }
}
