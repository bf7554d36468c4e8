package pi.host.tools.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import pi.host.spi.ChildProcesses;

/**
 * Pins issue 12.1's second half: a child the host starts has /dev/null (or a pipe it asked for) and
 * pipes of its own, and no other descriptor of the host, on both ways of starting one (posix_spawn
 * with closefrom, ProcessBuilder and setsid), however many descriptors the host has open without
 * close-on-exec.
 */
@EnabledOnOs(OS.LINUX)
class ChildDescriptorsTest {

    @TempDir
    Path dir;

    private ProcessSupervisor supervisor;

    @AfterEach
    void close() {
        if (supervisor != null) {
            supervisor.close();
        }
    }

    private ProcessSupervisor supervisor(boolean nativeSpawn) {
        if (!nativeSpawn) {
            System.setProperty(ProcessSupervisor.NO_SPAWN, "true");
        }
        try {
            supervisor = new ProcessSupervisor();
        } finally {
            System.clearProperty(ProcessSupervisor.NO_SPAWN);
        }
        assertThat(supervisor.spawnsNatively()).isEqualTo(nativeSpawn);
        return supervisor;
    }

    /**
     * Pins: a command could reach a descriptor the host held open without close-on-exec (issue 12.1);
     * also through {@code startPumped}, whose fallback hands the child pipes of the host's own by path.
     */
    @ParameterizedTest(name = "posix_spawn: {0}, pumped: {1}")
    @CsvSource({"true, false", "false, false", "true, true", "false, true"})
    void aCommandHasDevNullAndTwoPipesOfItsOwnAndNothingElse(boolean nativeSpawn, boolean pumped) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "the host's");
        // FileInputStream opens without O_CLOEXEC: only the spawn's own closing keeps it from the child
        try (FileInputStream held = new FileInputStream(secret.toFile())) {
            ProcessBuilder pb = new ProcessBuilder().directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            List<String> command = List.of("/bin/bash", "-c", Descriptors.LISTING);
            ProcessSupervisor.Started s = pumped ? supervisor(nativeSpawn).startPumped(pb, command)
                    : supervisor(nativeSpawn).start(pb, command);
            Map<Integer, String> fds = Descriptors.parse(output(s.process()));

            assertThat(fds.keySet()).containsExactly(0, 1, 2);
            assertThat(fds.get(0)).isEqualTo("/dev/null");
            assertThat(fds.get(1)).startsWith("pipe:[").isNotEqualTo(fds.get(2));
            assertThat(fds.get(2)).startsWith("pipe:[");
            assertThat(fds.values()).doesNotContain(secret.toString())
                    .doesNotContainAnyElementsOf(Descriptors.channelsOfThisJvm());
            assertThat(held.read()).isEqualTo('t'); // still the host's, and open
            // and the host kept no end of the child's pipes once it closed its streams
            assertThat(openInThisJvm()).doesNotContain(fds.get(1), fds.get(2));
        }
    }

    private static List<String> openInThisJvm() throws Exception {
        List<String> targets = new ArrayList<>();
        try (var fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    targets.add(Files.readSymbolicLink(fd).toString());
                } catch (IOException e) {
                    // closed while listing (the directory stream's own descriptor among them)
                }
            }
        }
        return targets;
    }

    /** Through the SPI: a stdin pipe when the protocol needs one (an MCP stdio server), still nothing else. */
    @ParameterizedTest(name = "posix_spawn: {0}")
    @ValueSource(booleans = {true, false})
    void aChildAskingForAStdinPipeGetsItsOwn(boolean nativeSpawn) throws Exception {
        ChildProcesses children = new ChildProcessService(supervisor(nativeSpawn));
        ChildProcesses.Child child = children.start(new ProcessBuilder("/bin/bash", "-c",
                "read line; echo \"got $line\"; " + Descriptors.LISTING).directory(dir.toFile()));
        try (OutputStream in = child.process().getOutputStream()) {
            in.write("hello\n".getBytes(StandardCharsets.UTF_8));
        }
        String out = output(child.process());
        assertThat(out).startsWith("got hello\n");
        Map<Integer, String> fds = Descriptors.parse(out.substring("got hello\n".length()));
        assertThat(fds.keySet()).containsExactly(0, 1, 2);
        assertThat(fds.values()).allSatisfy(t -> assertThat(t).startsWith("pipe:["))
                .doesNotHaveDuplicates().doesNotContainAnyElementsOf(Descriptors.channelsOfThisJvm());
    }

    /** Pins: a bundle could hand a child the host's own stdin or stdout, the RPC channel (issue 12.1). */
    @Test
    void inheritingTheHostsStreamsIsRefusedAndNothingRuns() {
        ChildProcesses children = new ChildProcessService(supervisor(true));
        Path ran = dir.resolve("ran");
        for (ProcessBuilder pb : List.of(
                new ProcessBuilder("/bin/sh", "-c", "touch ran").redirectInput(ProcessBuilder.Redirect.INHERIT),
                new ProcessBuilder("/bin/sh", "-c", "touch ran").redirectOutput(ProcessBuilder.Redirect.INHERIT),
                new ProcessBuilder("/bin/sh", "-c", "touch ran").inheritIO())) {
            assertThatThrownBy(() -> children.start(pb.directory(dir.toFile())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a child never inherits the host's stdin, stdout or stderr");
        }
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !Files.exists(ran));
    }

    @Test
    void killTreeThroughTheSpiEndsTheChildAndWhatItStarted() throws Exception {
        ChildProcesses children = new ChildProcessService(supervisor(true));
        ChildProcesses.Child child = children.start(new ProcessBuilder("/bin/bash", "-c",
                "sleep 60 & echo $! > grandchild.pid; wait").directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))));
        Path pidFile = dir.resolve("grandchild.pid");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank());
        long grandchild = Long.parseLong(Files.readString(pidFile).strip());
        child.killTree();
        assertThat(child.process().waitFor(5, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> !Procs.running(grandchild));
    }

    private static String output(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        p.getInputStream().close(); // a pumped start's pipes are the host's to close
        p.getErrorStream().close();
        return out;
    }
}
