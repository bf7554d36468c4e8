package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.core.internal.delegation.DefinitionLoader;
import pi.host.core.internal.delegation.DelegateScope;
import pi.host.core.internal.delegation.Subagents;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.ToolKind;

class DelegationStepTest extends StepTest {

    DelegationStep step;

    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(kit.project.resolve(".pi/agents"));
        Files.writeString(kit.project.resolve(".pi/agents/reader.md"), "---\nname: reader\ndescription: reads\n"
                + "tools: [Read]\n---\nRead.\n");
        step = new DelegationStep(new DelegateScope(Subagents.of(new DefinitionLoader(List.of(), List.of()),
                Files.createDirectories(tmp.resolve("user")), mode -> Set.of("Read", "Write"))));
    }

    private CallState delegateCall(SessionRecord s, String tool, String delegate) {
        CallState c = new CallState(new ExecuteRequest(s.id(), "t", "c", tool, JsonNodeFactory.instance.objectNode(),
                null, new ExecuteRequest.Delegate(delegate, "project", "auto", "dl_1")), "tr");
        c.first.session = s;
        c.first.mode = OperatingMode.AGENT;
        return c;
    }

    @Test
    void aDelegatesCallInsideItsToolsGoesOnInScope() throws Exception {
        CallState c = delegateCall(kit.session("agent", "ask"), "Read", "reader");
        assertThat(step.apply(c, c.first)).isNull();
        assertThat(c.first.delegation.inScope()).isTrue();
        assertThat(c.first.delegation.permission()).as("a project definition has no scope").isNull();
    }

    @Test
    void aDelegatesCallOutsideItsToolsIsDeniedBeforeAnyCard() throws Exception {
        CallState c = delegateCall(kit.session("agent", "ask"), "Write", "reader");
        assertThat(step.apply(c, c.first).errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(c.rule).isEqualTo("delegate.scope");
        CallState unknown = delegateCall(kit.session("agent", "ask"), "Read", "nobody");
        assertThat(step.apply(unknown, unknown.first).errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
    }

    @Test
    void theSessionsOwnCallHasNoDelegation() throws Exception {
        SessionRecord s = kit.session("agent", "ask");
        CallState c = kit.call(s, StepKit.builtin("Read", ToolKind.READ, Risk.LOW, false), "{}");
        c.first.mode = OperatingMode.AGENT;
        assertThat(step.apply(c, c.first)).isNull();
        assertThat(c.first.delegation).isSameAs(DelegateScope.Verdict.NONE);
    }
}
