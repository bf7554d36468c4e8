package pi.host.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class OperatingModeTest {

    @ParameterizedTest
    @CsvSource({"AGENT, agent", "PLAN, plan", "GOAL, goal"})
    void wireWords(OperatingMode mode, String wire) {
        assertThat(mode.wire()).isEqualTo(wire);
        assertThat(OperatingMode.parse(wire)).contains(mode);
    }

    @ParameterizedTest
    @EnumSource(OperatingMode.class)
    void everyModeRoundTrips(OperatingMode mode) {
        assertThat(OperatingMode.parse(mode.wire())).contains(mode);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "Agent", "PLAN", " goal", "goal ", "agents", "inherit", "ask"})
    void onlyExactLowerCaseWordsParse(String value) {
        assertThat(OperatingMode.parse(value)).isEmpty();
    }
}
