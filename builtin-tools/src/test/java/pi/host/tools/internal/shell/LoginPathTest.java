package pi.host.tools.internal.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@EnabledOnOs({OS.LINUX, OS.MAC})
class LoginPathTest {

    @TempDir
    Path dir;

    @Test
    void asksTheLoginShellForItsPath() {
        assertThat(LoginPath.probe(Map.of("SHELL", "/bin/bash"), LoginPath.BOUND_MS)).hasValueSatisfying(
                p -> assertThat(p).contains("/"));
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
