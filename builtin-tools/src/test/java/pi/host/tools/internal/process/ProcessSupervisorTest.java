package pi.host.tools.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The native edges: proves the JNA path ran (subreaper adoption, group signal), and the fallback still kills. */
@EnabledOnOs(OS.LINUX)
class ProcessSupervisorTest {

    @TempDir
    Path dir;

    private ProcessSupervisor supervisor;

    @AfterEach
    void close() {
        if (supervisor != null) {
            supervisor.close();
        }
    }

    private ProcessSupervisor.Started start(ProcessSupervisor s, String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder().directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        return s.start(pb, List.of("/bin/bash", "-c", script));
    }

    private long awaitPid(Path file) throws java.io.IOException {
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(file) && !Files.readString(file).isBlank());
        return Long.parseLong(Files.readString(file).trim());
    }

    @Test
    void theNativePathIsLoadedAndTheHostIsASubreaper() {
        supervisor = new ProcessSupervisor();
        assertThat(supervisor.signals().isNative()).as("JNA signals").isTrue();
        assertThat(supervisor.isSubreaper()).isTrue();
        assertThat(supervisor.signals().isSubreaper()).as("prctl(PR_GET_CHILD_SUBREAPER)").isTrue();
    }

    /** Pins: an orphan (its parent exited) is re-parented to the host, not to init, so it stays reachable. */
    @Test
    void anOrphanIsAdoptedByTheHost() throws Exception {
        supervisor = new ProcessSupervisor();
        Path pidFile = dir.resolve("orphan.pid");
        ProcessSupervisor.Started s = start(supervisor, "(sleep 60 & echo $! > orphan.pid) ; exit 0");
        s.process().waitFor();
        long orphan = awaitPid(pidFile);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> Procs.parent(orphan) == ProcessHandle.current().pid());
        supervisor.killTree(s);
        await().atMost(Duration.ofSeconds(5)).until(() -> Procs.state(orphan) == 0); // killed and reaped
    }

    /**
     * Pins: a process that left the tree and cleared its environment is found only through the
     * group signal (kill(-pgid)), so its death proves the native group path ran.
     */
    @Test
    void theGroupSignalReachesAnEscapedProcessWithoutTheMarker() throws Exception {
        supervisor = new ProcessSupervisor();
        Path pidFile = dir.resolve("escaped.pid");
        ProcessSupervisor.Started s = start(supervisor,
                "(env -i /bin/sh -c 'trap \"\" TERM; sleep 60 & echo $! > escaped.pid; wait' &) ; sleep 60");
        long escaped = awaitPid(pidFile);
        assertThat(Procs.withEnvironment(ProcessSupervisor.MARKER, s.marker())).doesNotContain(escaped);
        supervisor.killTree(s);
        await().atMost(Duration.ofSeconds(5)).until(() -> !Procs.running(escaped));
    }

    @Test
    void withoutJnaTheTreeIsStillKilledThroughTheMarker() throws Exception {
        supervisor = new ProcessSupervisor(new JavaSignals());
        assertThat(supervisor.signals().isNative()).isFalse();
        Path pidFile = dir.resolve("daemon.pid");
        ProcessSupervisor.Started s = start(supervisor,
                "setsid /bin/sh -c 'trap \"\" TERM; echo $$ > daemon.pid; while :; do sleep 1; done' & sleep 60");
        long daemon = awaitPid(pidFile);
        supervisor.killTree(s);
        await().atMost(Duration.ofSeconds(5)).until(() -> !Procs.running(daemon));
        assertThat(s.process().isAlive()).isFalse();
    }
}
