package pi.host.core.internal.policy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import pi.host.api.ErrorCode;
import pi.host.spi.ToolKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every cell of the spec §10 / §10.1 / §11 matrix, with and without plan-safe actions. */
class ModeMatrixTest {

    /**
     * kind, planSafeActions, Agent, Plan, Goal: "admit" or the error code. The flag only changes the
     * PLUGIN row; every other row is listed for both values to prove it is ignored there.
     */
    private static final String MATRIX = """
            READ,           *,     admit,        admit,                   admit
            PREVIEW,        *,     admit,        admit,                   admit
            EXEC,           *,     admit,        admit,                   admit
            CONTROL,        *,     admit,        admit,                   admit
            TODO,           *,     admit,        MODE_DENIED,             MODE_DENIED
            EDIT,           *,     admit,        MODE_DENIED,             MODE_DENIED
            ENTER_PLAN,     *,     admit,        MODE_DENIED,             MODE_DENIED
            ENTER_GOAL,     *,     admit,        MODE_DENIED,             MODE_DENIED
            SUBMIT_PLAN,    *,     MODE_DENIED,  admit,                   MODE_DENIED
            SUBMIT_GOAL,    *,     MODE_DENIED,  MODE_DENIED,             admit
            TASK,           *,     admit,        MODE_DENIED,             MODE_DENIED
            PLUGIN_TOOLING, *,     admit,        MODE_DENIED,             MODE_DENIED
            JEV,            *,     admit,        MODE_DENIED,             MODE_DENIED
            SKILL,          *,     admit,        admit,                   admit
            IMAGES,         *,     admit,        MODE_DENIED,             MODE_DENIED
            MCP,            *,     admit,        MODE_DENIED,             MODE_DENIED
            PLUGIN,         true,  admit,        admit,                   admit
            PLUGIN,         false, admit,        PLUGIN_DISABLED_IN_PLAN, PLUGIN_DISABLED_IN_PLAN
            """;

    static Stream<Arguments> cells() {
        List<Arguments> out = new ArrayList<>();
        for (String line : MATRIX.strip().split("\n")) {
            String[] f = line.split(",");
            ToolKind kind = ToolKind.valueOf(f[0].trim());
            String flag = f[1].trim();
            List<Boolean> flags = flag.equals("*") ? List.of(false, true) : List.of(Boolean.parseBoolean(flag));
            OperatingMode[] modes = OperatingMode.values();
            for (boolean planSafe : flags) {
                for (int i = 0; i < modes.length; i++) {
                    out.add(Arguments.of(modes[i], kind, planSafe, f[2 + i].trim()));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} planSafe={2} -> {3}")
    @MethodSource("cells")
    void everyCell(OperatingMode mode, ToolKind kind, boolean planSafe, String expected) {
        Admission a = ModeMatrix.admit(mode, kind, planSafe);
        if (expected.equals("admit")) {
            assertThat(a.admitted()).isTrue();
            assertThat(a.code()).isNull();
            assertThat(a.rule()).startsWith(mode.wire() + ".allow.");
        } else {
            assertThat(a.admitted()).isFalse();
            assertThat(a.code()).isEqualTo(ErrorCode.valueOf(expected));
            assertThat(a.rule()).startsWith(mode.wire() + ".deny.");
        }
    }

    /** The table above must not silently miss a kind added later. */
    @Test
    void tableCoversEveryKindAndModeWithBothFlags() {
        Map<ToolKind, Integer> cellsPerKind = new EnumMap<>(ToolKind.class);
        cells().forEach(a -> cellsPerKind.merge((ToolKind) a.get()[1], 1, Integer::sum));
        assertThat(cellsPerKind).hasSize(ToolKind.values().length);
        assertThat(cellsPerKind.values()).allMatch(n -> n == OperatingMode.values().length * 2);
    }

    @ParameterizedTest(name = "{0} {1} planSafe={2} -> {3}")
    @CsvSource(textBlock = """
            PLAN,  EDIT,        false, plan.deny.edit
            GOAL,  EDIT,        false, goal.deny.edit
            PLAN,  READ,        false, plan.allow.read
            AGENT, SUBMIT_PLAN, false, agent.deny.submit-plan
            AGENT, SUBMIT_GOAL, true,  agent.deny.submit-goal
            AGENT, EDIT,        false, agent.allow.edit
            AGENT, PLUGIN,      false, agent.allow.plugin
            PLAN,  SUBMIT_PLAN, false, plan.allow.submit-plan
            GOAL,  SUBMIT_PLAN, false, goal.deny.submit-plan
            GOAL,  SUBMIT_GOAL, false, goal.allow.submit-goal
            PLAN,  PLUGIN,      true,  plan.allow.plugin-plan-safe
            PLAN,  PLUGIN,      false, plan.deny.plugin-not-plan-safe
            GOAL,  PLUGIN,      false, goal.deny.plugin-not-plan-safe
            PLAN,  MCP,         true,  plan.deny.mcp
            PLAN,  TODO,        false, plan.deny.todo
            GOAL,  CONTROL,     false, goal.allow.control
            PLAN,  ENTER_GOAL,  false, plan.deny.enter-goal
            PLAN,  PLUGIN_TOOLING, false, plan.deny.plugin-tooling
            """)
    void ruleIdsAreStable(OperatingMode mode, ToolKind kind, boolean planSafe, String rule) {
        assertThat(ModeMatrix.admit(mode, kind, planSafe).rule()).isEqualTo(rule);
    }

    /** An MCP tool cannot buy its way into Plan/Goal with a plan-safe flag: the hard deny applies. */
    @Test
    void mcpIsDeniedInContractModesEvenIfFlaggedPlanSafe() {
        assertThat(ModeMatrix.admit(OperatingMode.PLAN, ToolKind.MCP, true).code()).isEqualTo(ErrorCode.MODE_DENIED);
        assertThat(ModeMatrix.admit(OperatingMode.GOAL, ToolKind.MCP, true).code()).isEqualTo(ErrorCode.MODE_DENIED);
    }

    @Test
    void nullsAreRejected() {
        assertThatThrownBy(() -> ModeMatrix.admit(null, ToolKind.READ, false)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ModeMatrix.admit(OperatingMode.AGENT, null, false))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void admissionCarriesACodeExactlyWhenItRefuses() {
        assertThatThrownBy(() -> new Admission(true, ErrorCode.MODE_DENIED, "r"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Admission(false, null, "r")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Admission(true, null, null)).isInstanceOf(NullPointerException.class);
    }
}
