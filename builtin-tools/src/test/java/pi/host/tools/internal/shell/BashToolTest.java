package pi.host.tools.internal.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.ToolCall.Stream;
import pi.host.api.ToolResult;
import pi.host.spi.TaskState;
import pi.host.tools.internal.background.BackgroundTaskManager;
import pi.host.tools.internal.process.ProcessSupervisor;

/** Bash with real processes (issue 5 "Must show"). */
@EnabledOnOs({OS.LINUX, OS.MAC})
class BashToolTest {

    @TempDir
    Path workspace;
    @TempDir
    Path scratch;
    /**
     * The login shell's home: a user's profile is not what these tests are about, and a timeout that
     * killed the shell inside it could leave state behind (pyenv's rehash lock, which made every later
     * login shell of the machine wait 60 s for it).
     */
    @TempDir
    Path home;

    private ProcessSupervisor supervisor;
    private Shells.Host host;
    private BackgroundTaskManager background;
    private BashTool bash;
    /** What the tool handed to the host's quiet work (never run here: a command probes itself). */
    private final List<Runnable> quietWork = new CopyOnWriteArrayList<>();

    /** The supervisor every test runs on; {@link BashToolFallbackTest} runs them all on the fallback. */
    ProcessSupervisor newSupervisor() {
        return new ProcessSupervisor(); // posix_spawn where it works (ProcessSupervisorTest pins that it does here)
    }

    @BeforeEach
    void setUp() {
        supervisor = newSupervisor();
        host = new Shells.Host();
        background = new BackgroundTaskManager(supervisor, host);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("HOME", home.toString());
        bash = new BashTool(supervisor, background, env, quietWork::add);
    }

    @AfterEach
    void tearDown() {
        background.stopAll();
        supervisor.close();
    }

    /**
     * Pins that listing Bash hands the login-PATH probe to the host's quiet work (which waits for the calls to
     * pause) instead of starting it at once, and only once however often the tool is listed.
     */
    @Test
    void listingBashHandsTheLoginProbeToQuietWorkOnce() {
        bash.inputSchema();
        bash.inputSchema();
        assertThat(quietWork).hasSize(1);
    }

    private FakeCall call(String command, Object timeout) {
        Map<String, Object> args = new HashMap<>();
        args.put("command", command);
        if (timeout != null) {
            args.put("timeout", timeout);
        }
        return new FakeCall(args, workspace, scratch);
    }

    private ToolResult run(String command, Object timeout) throws Exception {
        return bash.execute(call(command, timeout));
    }

    /**
     * Runs {@code command}, whose timeout is the point of the test, until the shell got as far as
     * {@code got}, doubling the timeout from {@code seconds} (four runs at most). The timeout counts
     * from the spawn, and on a loaded machine a login shell can need longer than a short timeout to
     * reach its first command: a run killed before it started what the test is about proves nothing
     * about it, and waiting for the pid file of a process that never ran was this test's own race.
     */
    private ToolResult runPastItsStart(String command, long seconds, Path got) throws Exception {
        return runPastItsStart(command, seconds, got, c -> { });
    }

    private ToolResult runPastItsStart(String command, long seconds, Path got, Consumer<FakeCall> setUp)
            throws Exception {
        for (int run = 0; ; run++) {
            FakeCall c = call(command, seconds << run);
            setUp.accept(c);
            ToolResult r = bash.execute(c);
            if (run == 3 || (Files.exists(got) && !Files.readString(got).isBlank())) {
                return r;
            }
        }
    }

    private long pidFrom(Path file) throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(file) && !Files.readString(file).isBlank());
        return Long.parseLong(Files.readString(file).trim());
    }

    private static boolean running(long pid) {
        return ProcessHandle.of(pid).map(h -> {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                return state != 'Z' && state != 'X';
            } catch (Exception e) {
                return h.isAlive();
            }
        }).orElse(false);
    }

    @Test
    void runsInTheWorkspaceWithTheScratchDirExportedAndStreamsSeparately() throws Exception {
        FakeCall c = call("pwd; echo \"$PI_SCRATCH_DIR\"; echo oops >&2", null);
        ToolResult r = bash.execute(c);
        assertThat(r.ok()).as(r.toString()).isTrue();
        assertThat((String) r.details().get("stdout"))
                .isEqualTo(workspace.toRealPath() + "\n" + scratch + "\n");
        assertThat(r.details().get("stderr")).isEqualTo("oops\n");
        assertThat(String.join("", c.output(Stream.STDOUT))).contains(scratch.toString());
        assertThat(String.join("", c.output(Stream.STDERR))).isEqualTo("oops\n");
        assertThat(r.details().get("timeoutMs")).isEqualTo(60_000L);
        assertThat(r.details().get("shell")).isEqualTo(Map.of("id", "bash", "dialect", "posix", "path",
                ShellResolver.resolve(System.getenv()).shell().orElseThrow().toString()));
    }

    @Test
    void aNonZeroExitIsToolFailedWithEverythingKept() throws Exception {
        ToolResult r = run("echo out; echo err >&2; exit 3", null);
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_FAILED);
        assertThat(r.details()).containsEntry("exitCode", 3).containsEntry("stdout", "out\n")
                .containsEntry("stderr", "err\n");
        assertThat(String.join("\n", r.text())).contains("[exit code 3]");
    }

    @Test
    void catWaitingOnStdinReturnsAtOnce() throws Exception {
        long t0 = System.nanoTime();
        ToolResult r = run("cat; echo after", 30);
        assertThat(r.ok()).isTrue();
        assertThat(r.details().get("stdout")).isEqualTo("after\n");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void noTerminal() throws Exception {
        ToolResult r = run("test -t 0 || echo no-tty-in; test -t 1 || echo no-tty-out", null);
        assertThat(r.details().get("stdout")).isEqualTo("no-tty-in\nno-tty-out\n");
    }

    /** Pins: a daemon that calls setsid and ignores SIGTERM outlived the timeout in other agents. */
    @Test
    void aSetsidDaemonIgnoringSigtermIsGoneAfterTheTimeout() throws Exception {
        ToolResult r = runPastItsStart("setsid /bin/sh -c 'trap \"\" TERM; echo $$ > daemon.pid; exec 1>&- 2>&-;"
                + " while :; do sleep 1; done' & echo started > started; echo started; sleep 100", 2,
                workspace.resolve("started"));
        long timeoutMs = (Long) r.details().get("timeoutMs");
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_TIMEOUT);
        assertThat(r.details()).containsEntry("stdout", "started\n");
        assertThat(String.join("\n", r.text())).contains("Raise 'timeout'").contains(timeoutMs + " ms");
        assertThat((Long) r.details().get("durationMs")).isLessThan(timeoutMs + 3_000);
        long daemon = pidFrom(workspace.resolve("daemon.pid"));
        await().atMost(Duration.ofSeconds(2)).until(() -> !running(daemon));
    }

    @Test
    void aFifoHangEndsOnTheTimeout() throws Exception {
        ToolResult r = run("mkfifo f; (cat f > /dev/null &); cat > f < f", 1);
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_TIMEOUT);
    }

    @Test
    void aCommandThatClosesStdoutIsStillTimedOut() throws Exception {
        ToolResult r = runPastItsStart("echo before; echo closing > closing; exec 1>&- 2>&-; sleep 100", 1,
                workspace.resolve("closing"));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_TIMEOUT);
        assertThat(r.details().get("stdout")).isEqualTo("before\n");
        assertThat((Long) r.details().get("durationMs")).isLessThan((Long) r.details().get("timeoutMs") + 4_000);
    }

    /** Pins: a background child that holds the pipe keeps the call open until the timeout kills it. */
    @Test
    void aPipeHolderIsKilledOnTheTimeout() throws Exception {
        ToolResult r = runPastItsStart("(sleep 100; echo late) & echo $! > holder.pid; echo done", 1,
                workspace.resolve("holder.pid"));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_TIMEOUT);
        long holder = pidFrom(workspace.resolve("holder.pid"));
        await().atMost(Duration.ofSeconds(2)).until(() -> !running(holder));
    }

    /**
     * Pins: on the ProcessBuilder fallback the JDK closed the output pipes when the shell exited, so a
     * background child still holding them did not keep the call open (it ended as complete, the
     * child's later output lost). The JDK took a pipe away only while no read on it was in flight;
     * the listener holds both pumps between two reads until the shell has been reaped, which makes
     * that the case every time.
     */
    @Test
    void theOutputEndsWithItsLastWriterNotWithTheShell() throws Exception {
        ToolResult r = runPastItsStart("echo $$ > shell.pid; (sleep 100; echo late) & echo $! > holder.pid;"
                + " echo out; echo err >&2; echo ended > ended", 2, workspace.resolve("ended"),
                c -> c.onOutput((stream, chunk) -> {
                    try {
                        long shell = pidFrom(workspace.resolve("shell.pid"));
                        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(shell).isEmpty());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
        assertThat(r.errorCode()).as(r.toString()).isEqualTo(ErrorCode.TOOL_TIMEOUT);
        assertThat(r.details()).containsEntry("stdout", "out\n").containsEntry("stderr", "err\n");
        long holder = pidFrom(workspace.resolve("holder.pid"));
        await().atMost(Duration.ofSeconds(2)).until(() -> !running(holder));
    }

    @Test
    void hugeOutputIsBoundedWithAMarker() throws Exception {
        long t0 = System.nanoTime();
        ToolResult r = run("yes | head -c 268435456", 120);
        assertThat(r.ok()).isTrue();
        assertThat(r.truncated()).isTrue();
        String out = (String) r.details().get("stdout");
        assertThat(out.length()).isLessThan(70 * 1024);
        assertThat(out).contains("characters cut ...]").startsWith("y\ny\n").endsWith("y\n");
        assertThat((Long) r.details().get("stdoutCutChars")).isEqualTo(268435456L - 64 * 1024);
        System.out.println("256 MiB drained in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms");
    }

    @Test
    void randomBytesComeBackAsValidText() throws Exception {
        ToolResult r = run("head -c 4096 /dev/urandom", null);
        String out = (String) r.details().get("stdout");
        // no lone surrogates: the text encodes to UTF-8 and back unchanged
        assertThat(new String(out.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(out);
    }

    @Test
    void abortKillsTheTreeAndReturnsTheOutputSoFar() throws Exception {
        FakeCall c = call("echo first; setsid sh -c 'trap \"\" TERM; echo $$ > d.pid; sleep 100' & sleep 100", 600);
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return bash.execute(c);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long daemon = pidFrom(workspace.resolve("d.pid"));
        await().until(() -> String.join("", c.output(Stream.STDOUT)).contains("first"));
        long t0 = System.nanoTime();
        c.cancel();
        ToolResult r = result.get(10, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_ABORTED);
        assertThat(r.details().get("stdout")).isEqualTo("first\n");
        await().atMost(Duration.ofSeconds(2)).until(() -> !running(daemon));
    }

    @Test
    void timeoutsOutOfRangeAreInvalidAndMillisecondsAreConverted() throws Exception {
        for (Object bad : new Object[] {0, -1, 0.5, "60", 100_000_001L, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThat(run("true", bad).errorCode()).as("timeout " + bad).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        }
        assertThat(BashArguments.timeoutMs(600)).isEqualTo(600_000);
        assertThat(BashArguments.timeoutMs(1800)).isEqualTo(1_800_000);
        assertThat(BashArguments.timeoutMs(21_600)).isEqualTo(21_600_000);
        assertThat(BashArguments.timeoutMs(90_000)).isEqualTo(90_000);
        assertThat(BashArguments.timeoutMs(100_000_000)).isEqualTo(21_600_000);
        assertThat(BashArguments.timeoutMs(null)).isEqualTo(60_000);
    }

    @Test
    void runInBackgroundAnswersAtOnceAndSurvivesAbort() throws Exception {
        Map<String, Object> args = new HashMap<>();
        args.put("command", "echo hi; sleep 30");
        args.put("runInBackground", true);
        FakeCall c = new FakeCall(args, workspace, scratch);
        long t0 = System.nanoTime();
        ToolResult r = bash.execute(c);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        String id = (String) r.details().get("backgroundTaskId");
        assertThat(id).startsWith("bg_");
        c.cancel();
        await().until(() -> background.read(id).orElseThrow().stdout().contains("hi"));
        assertThat(background.read(id).orElseThrow().task().state()).isEqualTo(TaskState.RUNNING);
        background.stop(id);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> background.read(id).orElseThrow().task().state() == TaskState.STOPPED);
    }

    @Test
    void theThirdFailedPatchInATurnTerminates() throws Exception {
        Files.writeString(workspace.resolve("bad.diff"), "not a diff\n");
        ToolResult r = null;
        for (int i = 0; i < 3; i++) {
            r = run("git apply bad.diff", null);
        }
        assertThat(r.errorCode()).isEqualTo(ErrorCode.EDIT_RETRY_LIMIT);
        assertThat(r.terminate()).isTrue();
        assertThat(PatchLoopGuard.isPatch("cd x && patch -p1 < a.diff")).isTrue();
        assertThat(PatchLoopGuard.isPatch("echo dispatch")).isFalse();
    }

    @Test
    void aChangedShellIsRefusedAndAMissingBashNamesWhereItLooked() throws Exception {
        Map<String, Object> args = new HashMap<>(Map.of("command", "true", "shell", "windows-pwsh"));
        assertThat(bash.execute(new FakeCall(args, workspace, scratch)).errorCode())
                .isEqualTo(ErrorCode.COMMAND_SHELL_CHANGED);
        ShellResolver.Resolution none = ShellResolver.resolve(Map.of("PI_DESKTOP_BASH", "/nope/bash", "PATH", "/nope"),
                java.util.List.of("/nope/usr/bin/bash"));
        assertThat(none.shell()).isEmpty();
        assertThat(ShellResolver.guidance(none.searched())).contains("/nope/bash", "/nope/usr/bin/bash", "PATH (/nope)",
                "PI_DESKTOP_BASH");
        assertThat(ShellResolver.resolve(Map.of("PI_DESKTOP_BASH", "/bin/bash"), java.util.List.of()).shell())
                .contains(Path.of("/bin/bash"));
    }
}
