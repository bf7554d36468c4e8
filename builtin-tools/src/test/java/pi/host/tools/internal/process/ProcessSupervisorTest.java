package pi.host.tools.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
        assertThat(supervisor.spawnsNatively()).as("posix_spawn (glibc 2.34+)").isTrue();
    }

    /** Pins: one exec and still a new session: the shell leads session and group, with no terminal. */
    @Test
    void withASessionPerCommandTheShellLeadsItsSessionWithoutATerminal() throws Exception {
        supervisor = new ProcessSupervisor(NativeSignals.load(), true);
        ProcessSupervisor.Started s = start(supervisor, "sleep 60; exit 0");
        long pid = s.process().pid();
        assertThat(s.process().getClass().getSimpleName()).isEqualTo("SpawnedProcess");
        assertThat(s.ownGroup()).isTrue();
        String[] stat = statFields(pid);
        assertThat(stat[2]).as("pgrp").isEqualTo(Long.toString(pid));
        assertThat(stat[3]).as("session").isEqualTo(Long.toString(pid));
        assertThat(stat[4]).as("tty_nr").isEqualTo("0");
        // the vfork-style spawn returns while exec finishes: the new command line shows a moment later
        await().atMost(Duration.ofSeconds(5)).until(() -> Files.readString(Path.of("/proc/" + pid + "/cmdline"))
                .equals("/bin/bash\0-c\0sleep 60; exit 0\0"));
        supervisor.killTree(s);
        assertThat(s.process().waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(s.process().exitValue()).as("128 + SIGTERM").isEqualTo(143);
    }

    /**
     * Pins: without a terminal to keep it from, a command leads a process group of its own in the
     * host's session (no new scheduling group): never the host's group, which a {@code kill 0} in
     * the command would otherwise reach.
     */
    @Test
    void withoutASessionPerCommandTheShellLeadsItsOwnGroupInTheHostsSession() throws Exception {
        supervisor = new ProcessSupervisor(NativeSignals.load(), false);
        ProcessSupervisor.Started s = start(supervisor, "sleep 60; exit 0");
        long pid = s.process().pid();
        String[] stat = statFields(pid);
        String[] host = statFields(ProcessHandle.current().pid());
        assertThat(stat[2]).as("pgrp").isEqualTo(Long.toString(pid)).isNotEqualTo(host[2]);
        assertThat(stat[3]).as("session").isEqualTo(host[3]);
        supervisor.killTree(s);
        assertThat(s.process().waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }

    /** Pins: the child gets stdin, stdout and stderr and no other descriptor of the host (closefrom). */
    @Test
    void aNativelySpawnedCommandInheritsNoOtherDescriptor() throws Exception {
        supervisor = new ProcessSupervisor();
        try (java.io.RandomAccessFile open = new java.io.RandomAccessFile(dir.resolve("held").toFile(), "rw")) {
            ProcessBuilder pb = new ProcessBuilder().directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            ProcessSupervisor.Started s = supervisor.start(pb, List.of("/bin/bash", "-c",
                    "ls /proc/$$/fd; pwd >&2; exit 7"));
            String out = new String(s.process().getInputStream().readAllBytes()).trim();
            String err = new String(s.process().getErrorStream().readAllBytes()).trim();
            assertThat(s.process().waitFor()).isEqualTo(7);
            assertThat(out).isEqualTo("0\n1\n2");
            assertThat(err).isEqualTo(dir.toRealPath().toString());
            assertThat(open.getFD().valid()).isTrue();
        }
    }

    /** Pins: arguments, environment and cwd reach the shell intact, non-ASCII and empty ones included. */
    @Test
    void argumentsEnvironmentAndDirectoryArriveIntact() throws Exception {
        // arguments are encoded as the JDK encodes them: in a C locale neither path can pass non-ASCII
        org.junit.jupiter.api.Assumptions.assumeTrue("UTF-8".equals(System.getProperty("sun.jnu.encoding")));
        supervisor = new ProcessSupervisor();
        Path cwd = Files.createDirectory(dir.resolve("dïr €"));
        ProcessBuilder pb = new ProcessBuilder().directory(cwd.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("PI_TEST_VALUE", "é€ 😀 = x");
        pb.environment().put("PI_TEST_EMPTY", "");
        ProcessSupervisor.Started s = supervisor.start(pb, List.of("/bin/bash", "-c",
                "printf '%s|' \"$0\" \"$1\" \"$2\" \"$PI_TEST_VALUE\" \"${PI_TEST_EMPTY-unset}\" \"$PWD\"",
                "zero", "ünï 😀", ""));
        String out = new String(s.process().getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(s.process().waitFor()).isZero();
        assertThat(out).isEqualTo("zero|ünï 😀||é€ 😀 = x||" + cwd.toRealPath() + "|");
    }

    /** Pins: a program that cannot run fails the start with the reason, and leaks no pipe. */
    @Test
    void aMissingProgramFailsTheStartAndLeaksNoDescriptor() throws Exception {
        supervisor = new ProcessSupervisor();
        long before = openDescriptors();
        ProcessBuilder pb = new ProcessBuilder().directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        assertThatThrownBy(() -> supervisor.start(pb, List.of("/no/such/program")))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("Cannot run program \"/no/such/program\"")
                .hasMessageContaining("No such file or directory");
        ProcessBuilder missingDir = new ProcessBuilder().directory(dir.resolve("gone").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        assertThatThrownBy(() -> supervisor.start(missingDir, List.of("/bin/true")))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("in directory");
        assertThat(openDescriptors()).isEqualTo(before);
    }

    /** Pins: a shell killed by a signal reports 128 plus the signal, as ProcessBuilder's processes do. */
    @Test
    void anExitBySignalIs128PlusTheSignal() throws Exception {
        supervisor = new ProcessSupervisor();
        ProcessSupervisor.Started s = start(supervisor, "kill -9 $$");
        assertThat(s.process().onExit().get(10, java.util.concurrent.TimeUnit.SECONDS).exitValue()).isEqualTo(137);
        assertThat(s.process().isAlive()).isFalse();
    }

    private static String[] statFields(long pid) throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    private static long openDescriptors() throws java.io.IOException {
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
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
     * group signal (kill(-pgid)), so its death proves the native group path ran; in a session of
     * the command's own and in the host's session alike.
     */
    @Test
    void theGroupSignalReachesAnEscapedProcessWithoutTheMarker() throws Exception {
        escapedProcessDiesWithTheTree(true);
    }

    @Test
    void theGroupSignalReachesAnEscapedProcessInTheHostsSession() throws Exception {
        escapedProcessDiesWithTheTree(false);
    }

    private void escapedProcessDiesWithTheTree(boolean sessionPerCommand) throws Exception {
        supervisor = new ProcessSupervisor(NativeSignals.load(), sessionPerCommand);
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
