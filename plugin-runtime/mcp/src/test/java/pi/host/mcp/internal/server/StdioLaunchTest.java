package pi.host.mcp.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.mcp.internal.config.ServerSpec;

/**
 * How a stdio server is started, with real processes: its own process group, no descriptor of the host
 * but its three pipes, a small environment, and a whole tree that ends with its host, but not with the
 * host thread that happened to start it.
 */
class StdioLaunchTest {

    @TempDir
    Path dir;

    private final StdioLaunch launch = new StdioLaunch();

    private static ServerSpec spec(String script) {
        return new ServerSpec("t", ServerSpec.Transport.STDIO, "sh", List.of("-c", script), Map.of("FROM_ENTRY", "1"),
                null, null, Map.of(), 1000, false);
    }

    private static void awaitGone(long... pids) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (long pid : pids) {
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    return false;
                }
            }
            return true;
        });
    }

    private long[] serverAndGrandchild(Path pids) throws IOException {
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(pids)
                && Files.readString(pids).strip().split(" ").length == 2);
        String[] both = Files.readString(pids).strip().split(" ");
        return new long[] {Long.parseLong(both[0]), Long.parseLong(both[1])};
    }

    /** Pins orphaned servers: a host killed with -9 takes its server's whole process group along. */
    @Test
    void theServersGroupEndsWithItsHost() throws Exception {
        Path pids = dir.resolve("pids");
        List<String> command = launch.command(spec("sleep 1000 & echo $$ $! > " + pids + "; wait"), "pi-mcp:t", "HOST");
        // a stand-in host that can be killed with -9: it starts the command with its own pid for HOST
        List<String> host = new ArrayList<>(List.of("sh", "-c", "for a in \"$@\"; do [ \"$a\" = HOST ] && a=$$;"
                + " set -- \"$@\" \"$a\"; shift; done; \"$@\" < /dev/null & wait", "host"));
        host.addAll(command);
        Process standIn = new ProcessBuilder(host).redirectErrorStream(true).start();
        long[] tree = serverAndGrandchild(pids);
        ProcessHandle server = ProcessHandle.of(tree[0]).orElseThrow();
        assertThat(server.parent().map(ProcessHandle::pid)).as("the watchdog sits between host and server")
                .isNotEqualTo(Optional.of(standIn.pid()));
        assertThat(pgid(tree[0])).as("the server leads its own process group").isEqualTo(tree[0]);

        standIn.destroyForcibly(); // SIGKILL: nothing of the stand-in runs after it
        awaitGone(tree);
    }

    /**
     * Pins the parent-death signal's trap: it also comes when only the host thread that started the
     * server ends; the server must keep running then.
     */
    @Test
    void theServerOutlivesTheThreadThatStartedIt() throws Exception {
        Path pids = dir.resolve("pids");
        List<String> command = launch.command(spec("sleep 1000 & echo $$ $! > " + pids + "; wait"), "pi-mcp:t",
                Long.toString(ProcessHandle.current().pid()));
        AtomicReference<Process> started = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            try {
                started.set(new ProcessBuilder(command).redirectErrorStream(true).start());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        starter.start();
        starter.join();
        long[] tree = serverAndGrandchild(pids);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> ProcessHandle.of(tree[0]).map(ProcessHandle::isAlive).orElse(false));

        started.get().destroy(); // TERM to the watchdog: the host removing the server
        awaitGone(tree);
        assertThat(started.get().waitFor()).isEqualTo(143);
    }

    /**
     * Pins the window before the watchdog's trap: a parent-death signal in it (the starting thread ended
     * at once) ended the watchdog, and with it the server, when that signal terminated by default.
     * The signal is sent by the process to itself just before it becomes the watchdog.
     */
    @Test
    void aParentDeathSignalBeforeTheTrapIsSetEndsNothing() throws Exception {
        Path pids = dir.resolve("pids");
        List<String> command = launch.command(spec("sleep 1000 & echo $$ $! > " + pids + "; wait"), "pi-mcp:t",
                Long.toString(ProcessHandle.current().pid()));
        int separator = command.indexOf("--");
        List<String> early = new ArrayList<>(List.of("/bin/sh", "-c",
                "kill -s " + StdioLaunch.PARENT_DEATH_SIGNAL + " $$; exec \"$@\"", "early"));
        early.addAll(command.subList(separator + 1, command.size()));
        Process watchdog = new ProcessBuilder(early).redirectErrorStream(true).start();
        long[] tree = serverAndGrandchild(pids);
        assertThat(ProcessHandle.of(tree[0]).map(ProcessHandle::isAlive)).contains(true);

        watchdog.destroy();
        awaitGone(tree);
        assertThat(watchdog.waitFor()).isEqualTo(143);
    }

    /** Pins the other side of that window: a host that died before the trap was set must not be missed. */
    @Test
    void aHostGoneBeforeTheTrapIsSetStartsNoServer() throws Exception {
        Path ran = dir.resolve("ran");
        // pid 1 is not the watchdog's parent: as if the host had died and the watchdog been re-parented
        Process watchdog = new ProcessBuilder(launch.command(spec("echo ran > " + ran), "pi-mcp:t", "1"))
                .redirectErrorStream(true).start();
        assertThat(watchdog.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(watchdog.exitValue()).isEqualTo(137);
        assertThat(ran).doesNotExist();
    }

    @Test
    void onlyItsPipesAndASmallEnvironment() throws Exception {
        Path held = Files.writeString(dir.resolve("host-file"), "the host holds this open");
        try (InputStream open = Files.newInputStream(held)) {
            List<String> command = launch.command(spec("for f in /proc/$$/fd/*; do echo \"$f $(readlink $f)\"; done"),
                    "pi-mcp:t", Long.toString(ProcessHandle.current().pid()));
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().clear();
            pb.environment().putAll(StdioLaunch.environment(spec(""), Optional.of("/login/bin:/usr/bin"),
                    Map.of("HOME", "/h", "PATH", "/host/bin", "API_KEY", "secret")));
            Process p = pb.start();
            StringBuilder lines = new StringBuilder();
            try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(
                    p.getInputStream(), StandardCharsets.UTF_8))) {
                // up to the watchdog's exit notice; then the host closes, as the bridge does
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.append(line).append('\n');
                    if (line.contains("notifications/message")) {
                        break;
                    }
                }
            }
            p.destroy();
            p.waitFor();
            String out = lines.toString();
            List<String> fds = new ArrayList<>();
            for (String line : out.split("\n")) {
                if (line.startsWith("/proc/")) {
                    fds.add(line);
                }
            }
            assertThat(fds).noneMatch(l -> l.contains(held.toString()));
            assertThat(fds).filteredOn(l -> l.matches("/proc/\\d+/fd/[012] .*")).hasSize(3)
                    .allMatch(l -> l.contains("pipe:"));
            assertThat(out).as("the exit is told on stdout").contains("\"logger\":\"pi-mcp:t\",\"data\":\"0\"");
        }
        Map<String, String> env = StdioLaunch.environment(spec(""), Optional.of("/login/bin"),
                Map.of("HOME", "/h", "PATH", "/host/bin", "API_KEY", "secret", "TERM", "xterm"));
        assertThat(env).containsEntry("PATH", "/login/bin").containsEntry("HOME", "/h").containsEntry("TERM", "xterm")
                .containsEntry("FROM_ENTRY", "1").doesNotContainKey("API_KEY");
        assertThat(StdioLaunch.environment(spec(""), Optional.empty(), Map.of("PATH", "/host/bin")))
                .as("no login PATH: the host's").containsEntry("PATH", "/host/bin");
    }

    private static long pgid(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
    }
}
