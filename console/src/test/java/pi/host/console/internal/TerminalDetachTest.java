package pi.host.console.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerminalDetachTest {

    @Test
    void theIoctlIsOnlyTriedWhereItsNumberIsKnown() {
        assertThat(TerminalDetach.request("Linux", "amd64")).isEqualTo(0x5422);
        assertThat(TerminalDetach.request("Linux", "aarch64")).isEqualTo(0x5422);
        assertThat(TerminalDetach.request("Linux", "ppc64le")).isZero();
        assertThat(TerminalDetach.request("Mac OS X", "aarch64")).isEqualTo(0x20007471L);
        assertThat(TerminalDetach.request("Windows 11", "amd64")).isZero();
    }

    @Test
    void optionsComeFromTheLaunchersPropertiesAndNoColor() {
        java.util.Map<String, String> props = java.util.Map.of("pi.host.console.workspace", "/w", "pi.host.data", "/d",
                "pi.host.console.permissionMode", "auto", "pi.host.console.noColor", "false");
        ConsoleOptions o = ConsoleOptions.from(props::get, java.util.Map.of(), true);
        assertThat(o.workspace()).hasToString("/w");
        assertThat(o.permissionMode()).isEqualTo("auto");
        assertThat(o.color()).isTrue();
        assertThat(ConsoleOptions.from(props::get, java.util.Map.of("NO_COLOR", "1"), true).color()).isFalse();
        assertThat(ConsoleOptions.from(props::get, java.util.Map.of("NO_COLOR", ""), true).color()).isTrue();
        java.util.Map<String, String> noColor = new java.util.HashMap<>(props);
        noColor.put("pi.host.console.noColor", "true");
        assertThat(ConsoleOptions.from(noColor::get, java.util.Map.of(), true).color()).isFalse();
    }
}
