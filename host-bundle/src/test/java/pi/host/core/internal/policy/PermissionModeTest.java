package pi.host.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class PermissionModeTest {

    @ParameterizedTest
    @CsvSource({"ASK, ask", "ACCEPT_EDITS, accept-edits", "AUTO, auto"})
    void wireWords(PermissionMode mode, String wire) {
        assertThat(mode.wire()).isEqualTo(wire);
        assertThat(PermissionMode.parse(wire)).contains(mode);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "inherit", "Ask", "AUTO", "accept_edits", "acceptEdits", "ACCEPT_EDITS", " auto",
        "yolo"})
    void onlyExactWordsParse(String value) {
        assertThat(PermissionMode.parse(value)).isEmpty();
    }
}
