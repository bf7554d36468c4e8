package pi.host.tools.internal.shell;

import static org.assertj.core.api.Assertions.assertThat;

import pi.host.tools.internal.process.ProcessSupervisor;

/**
 * Every Bash test again on the fallback (ProcessBuilder and {@code setsid}), which platforms
 * without glibc's posix_spawn (macOS, musl, glibc before 2.34) always take.
 */
class BashToolFallbackTest extends BashToolTest {

    @Override
    ProcessSupervisor newSupervisor() {
        System.setProperty(ProcessSupervisor.NO_SPAWN, "true");
        try {
            ProcessSupervisor s = new ProcessSupervisor();
            assertThat(s.spawnsNatively()).isFalse();
            return s;
        } finally {
            System.clearProperty(ProcessSupervisor.NO_SPAWN);
        }
    }
}
