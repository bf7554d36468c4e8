package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

class CatalogStepTest extends StepTest {

    final ToolRegistry registry = Registered.registry();

    @BeforeEach
    void setUp() throws Exception {
        Registered.register(registry, "pi.host.tools", StepKit.ECHO, Tool.NAME, "Read", Tool.RISK, "low",
                Builtin.KIND, "READ", Builtin.PARALLEL, true);
    }

    private CallState call(String name) throws Exception {
        return kit.call(kit.session("agent", "ask"), StepKit.builtin(name, ToolKind.READ, Risk.LOW, false), "{}");
    }

    @Test
    void theToolRegisteredUnderExactlyThatNameWithItsDeclaredFacts() throws Exception {
        CallState c = call("Read");
        Evaluation e = new Evaluation();
        assertThat(new CatalogStep(registry).apply(c, e)).isNull();
        assertThat(e.tool.kind()).isEqualTo(ToolKind.READ);
        assertThat(e.tool.facts().parallel()).isTrue();
    }

    @Test
    void anyOtherSpellingIsAnUnknownToolDenial() throws Exception {
        for (String name : new String[] {"read", "Read ", "Reаd"}) {
            CallState c = call(name);
            assertThat(new CatalogStep(registry).apply(c, new Evaluation()).errorCode()).as(name)
                    .isEqualTo(ErrorCode.UNKNOWN_TOOL);
            assertThat(c.decision).isEqualTo("deny");
            assertThat(c.rule).isEqualTo("catalog.unknown");
        }
    }

    @Test
    void aBuiltinThatDeclaresNoKindIsNeverRegistered() throws Exception {
        Registered.register(registry, "pi.host.tools", StepKit.ECHO, Tool.NAME, "Grep", Tool.RISK, "low");
        assertThat(new CatalogStep(registry).apply(call("Grep"), new Evaluation()).errorCode())
                .isEqualTo(ErrorCode.UNKNOWN_TOOL);
        assertThat(registry.diagnostics()).anySatisfy(d -> assertThat(d.reason()).contains("declares no kind"));
    }
}
