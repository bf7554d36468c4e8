package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.core.internal.approval.SessionGrants;
import pi.host.core.internal.catalog.Activations;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.ToolKind;

/** Pins issue 13.4 at the step: a changed session, mode, registration or permission mode refuses a call that waited. */
class RecheckStepTest extends StepTest {

    SessionRecord s;
    RegisteredTool write = StepKit.builtin("Write", ToolKind.EDIT, Risk.HIGH, true);
    RegisteredTool current;
    RecheckStep recheck;

    @BeforeEach
    void setUp() throws Exception {
        s = kit.session("agent", "accept-edits");
        current = write;
        Step catalog = (call, e) -> {
            e.tool = current;
            return null;
        };
        recheck = new RecheckStep(new SessionStep(kit.sessions), kit.roots(), catalog, List.of(new ModeStep(),
                (call, e) -> {
                    e.delegation = pi.host.core.internal.delegation.DelegateScope.Verdict.NONE;
                    return null;
                },
                new ActivationStep(new Activations()), new PlanActionStep(),
                new PathStep(kit.sessions, kit.resolvers, kit.hostState, true),
                new PolicyStep(kit.settings, new SessionGrants())));
    }

    /** A Write allowed by accept-edits that then waited for admission, as the first evaluation left it. */
    private CallState allowed() throws Exception {
        CallState c = kit.call(s, write, "{}");
        c.decided("allow", "edit.accept-edits", "permission-mode:accept-edits");
        c.queued = true;
        return c;
    }

    @Test
    void aCallThatWaitedForNothingIsNotJudgedAgain() throws Exception {
        CallState c = allowed();
        c.queued = false;
        kit.sessions.configure(s.id(), "plan", "accept-edits"); // not observable without a wait: no window
        assertThat(recheck.apply(c, c.first)).isNull();
        assertThat(c.last).isSameAs(c.first);
    }

    @Test
    void nothingChangedTheCallGoesOnUnderTheFreshEvaluation() throws Exception {
        CallState c = allowed();
        assertThat(recheck.apply(c, c.first)).isNull();
        assertThat(c.last).isNotSameAs(c.first);
        assertThat(c.last.session).isEqualTo(s);
        assertThat(c.source).as("the decision that let it through stands").isEqualTo("permission-mode:accept-edits");
    }

    @Test
    void aModeSwitchedToPlanIsModeDeniedAndAuditedAsARecheck() throws Exception {
        CallState c = allowed();
        kit.sessions.configure(s.id(), "plan", "accept-edits");
        assertThat(recheck.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.MODE_DENIED);
        assertThat(c.decision).isEqualTo("mode-deny");
        assertThat(c.source).isEqualTo("recheck:mode:plan");
    }

    @Test
    void aDeletedSessionIsSessionNotFound() throws Exception {
        CallState c = allowed();
        kit.sessions.delete(s.id());
        assertThat(recheck.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.SESSION_NOT_FOUND);
        assertThat(c.decision).isEqualTo("deny");
        assertThat(c.rule).isEqualTo("recheck.session_not_found");
    }

    @Test
    void aToolRegisteredAgainIsNotTheOneThatWasApproved() throws Exception {
        CallState c = allowed();
        current = Registered.again(write);
        assertThat(recheck.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(c.rule).isEqualTo("recheck.tool");
    }

    @Test
    void aCallAllowedWithoutACardThatWouldNeedOneNowIsRefused() throws Exception {
        CallState c = allowed();
        kit.sessions.configure(s.id(), "agent", "ask");
        ResultEnvelope r = recheck.apply(c, c.first);
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(r.text().get(0)).contains("now needs approval");
        assertThat(c.source).isEqualTo("recheck:permission-mode:ask");
    }

    @Test
    void aCallTheUserAllowedOnItsCardStillRunsUnderAStricterMode() throws Exception {
        CallState c = allowed();
        c.queued = false;
        c.prompted = true;
        c.userAllowed = true;
        c.decided("allow", "edit.ask", "user:allow-once");
        kit.sessions.configure(s.id(), "agent", "ask");
        assertThat(recheck.apply(c, c.first)).isNull();
        assertThat(c.source).isEqualTo("user:allow-once");
    }
}
