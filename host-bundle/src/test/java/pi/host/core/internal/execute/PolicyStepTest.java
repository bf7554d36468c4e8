package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.core.internal.approval.GrantScope;
import pi.host.core.internal.approval.SessionGrants;
import pi.host.core.internal.delegation.DelegateScope;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.policy.Verdict;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.ToolKind;

class PolicyStepTest extends StepTest {

    final SessionGrants grants = new SessionGrants();
    PolicyStep step;

    @BeforeEach
    void setUp() throws Exception {
        step = new PolicyStep(kit.settings, grants);
    }

    private CallState bash(String permissionMode) throws Exception {
        SessionRecord s = kit.session("agent", permissionMode);
        return kit.call(s, StepKit.builtin("Bash", ToolKind.EXEC, Risk.HIGH, true), "{}");
    }

    @Test
    void theSessionsModeThenTheGlobalDefaultDecide() throws Exception {
        CallState ask = bash("ask");
        assertThat(step.apply(ask, ask.first)).isNull();
        assertThat(ask.first.decision.verdict()).isEqualTo(Verdict.ASK);
        CallState auto = bash("auto");
        step.apply(auto, auto.first);
        assertThat(auto.first.decision.verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(auto.decision).isEqualTo("allow");
        kit.settings.update(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("defaultPermissionMode", "auto"));
        CallState inherited = bash("inherit");
        step.apply(inherited, inherited.first);
        assertThat(inherited.first.permissionMode).isEqualTo(PermissionMode.AUTO);
    }

    @Test
    void aDelegatesOwnScopeWinsOverTheSessions() throws Exception {
        CallState c = bash("ask");
        c.first.delegation = new DelegateScope.Verdict(null, "delegate.scope", null, true, PermissionMode.AUTO);
        step.apply(c, c.first);
        assertThat(c.first.decision.verdict()).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void onlyAGrantThatCoversTheCallsScopeLetsItThrough() throws Exception {
        CallState c = bash("ask");
        grants.grant(c.first.session.id(), GrantScope.roots("Bash"));
        step.apply(c, c.first);
        assertThat(c.first.decision.rule()).isEqualTo("grant.session");
        CallState outside = bash("ask");
        grants.grant(outside.first.session.id(), GrantScope.roots("Bash"));
        outside.first.outside = true;
        outside.first.scope = new GrantScope("Bash", false, List.of(new GrantScope.Area(Path.of("/etc"), true)));
        step.apply(outside, outside.first);
        assertThat(outside.first.decision.verdict()).isEqualTo(Verdict.ASK);
    }

    @Test
    void anUnresolvablePermissionModeDenies() throws Exception {
        SessionRecord s = new SessionRecord("s_x", null, kit.project.toString(), false, "agent", "bogus", false, 0, 0,
                null);
        CallState c = kit.call(kit.session("agent", "ask"), StepKit.builtin("Bash", ToolKind.EXEC, Risk.HIGH, true),
                "{}");
        c.first.session = s;
        assertThat(step.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(c.rule).isEqualTo("mode.unresolved");
    }
}
