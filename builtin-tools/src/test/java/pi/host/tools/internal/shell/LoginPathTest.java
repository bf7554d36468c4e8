package pi.host.tools.internal.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import pi.host.tools.internal.process.Descriptors;

@EnabledOnOs({OS.LINUX, OS.MAC})
class LoginPathTest {

    @TempDir
    Path dir;

    @Test
    void asksTheLoginShellForItsPath() {
        assertThat(LoginPath.probe(Map.of("SHELL", "/bin/bash"), LoginPath.BOUND_MS)).hasValueSatisfying(
                p -> assertThat(p).contains("/"));
    }

    /**
     * Pins: the login-PATH probe (the user's own shell, run by the host) gets /dev/null, its own stdout
     * pipe and /dev/null for stderr, no other descriptor of the host (issue 12.1). The stand-in shell
     * answers its descriptor listing on one line, where the probe takes the PATH from (it has a "/").
     */
    @Test
    void theProbeHasOnlyDevNullAndItsOwnPipe() throws Exception {
        Path shell = Descriptors.script(dir.resolve("listing-shell"), Descriptors.LISTING_ON_ONE_LINE);
        String answer = LoginPath.probe(Map.of("SHELL", shell.toString()), LoginPath.BOUND_MS).orElseThrow();
        Map<Integer, String> fds = Descriptors.parse(answer);
        assertThat(fds.keySet()).containsExactly(0, 1, 2);
        assertThat(fds.get(0)).isEqualTo("/dev/null");
        assertThat(fds.get(1)).startsWith("pipe:[");
        assertThat(fds.get(2)).isEqualTo("/dev/null");
        assertThat(fds.values()).doesNotContainAnyElementsOf(Descriptors.channelsOfThisJvm());
    }

    /** Pins: a login shell that hangs must not hold up commands for more than the bound. */
    @Test
    void aHangingOrFailingShellFallsThroughWithinTheBound() throws Exception {
        Path hang = dir.resolve("hang.sh");
        Files.writeString(hang, "#!/bin/sh\nsleep 30\n");
        hang.toFile().setExecutable(true);
        long t0 = System.nanoTime();
        // the hanging $SHELL times out, then the fallbacks (/bin/zsh, /bin/bash, /bin/sh) answer
        assertThat(LoginPath.probe(Map.of("SHELL", hang.toString()), 1_000)).isPresent();
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
        assertThat(LoginPath.probe(Map.of("SHELL", "/bin/false"), 1_000)).isPresent();
    }
}
