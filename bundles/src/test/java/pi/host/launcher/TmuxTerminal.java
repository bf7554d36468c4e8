package pi.host.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real terminal for end-to-end tests: a tmux server of the test's own (its own socket, no user
 * configuration) running one program in a window of a fixed size. Tests type with
 * {@link #type}/{@link #keys} ({@code send-keys}), read the screen with {@link #screen}
 * ({@code capture-pane}) and await what they expect on it with a bound, never a sleep.
 */
final class TmuxTerminal implements AutoCloseable {

    static final Duration BOUND = Duration.ofSeconds(40);

    private final String socket = "pihost-" + UUID.randomUUID();
    private final String session = "t";

    private TmuxTerminal() {
    }

    /**
     * Starts {@code command} (argv, run without a shell) in a {@code width}×{@code height} window,
     * in {@code dir}, with {@code env} added to the environment. The window stays after the program
     * ends so its exit status can be read.
     */
    static TmuxTerminal start(int width, int height, Path dir, Map<String, String> env, List<String> command)
            throws IOException, InterruptedException {
        TmuxTerminal t = new TmuxTerminal();
        List<String> args = new ArrayList<>(List.of("new-session", "-d", "-s", t.session, "-x", String.valueOf(width),
                "-y", String.valueOf(height), "-c", dir.toString()));
        env.forEach((k, v) -> args.addAll(List.of("-e", k + "=" + v)));
        args.add("--");
        args.addAll(command);
        // in the same tmux invocation as new-session: set by a second client, the option raced with the
        // program's start, and tmux then often kept a dead pane without its exit status ("1||")
        args.addAll(List.of(";", "set-option", "-t", t.session, "remain-on-exit", "on"));
        t.tmux(args);
        return t;
    }

    /** The launcher the build produced, started as {@code bin/pi-host} starts it. */
    static List<String> launcher(String... args) {
        List<String> command = HostProcess.javaCommand(HostProcess.launcherJar());
        command.addAll(1, List.of("-Xlog:disable", "-Xlog:all=warning:stderr", "-XX:+UseSerialGC"));
        command.addAll(List.of(args));
        return command;
    }

    /** Types text literally (no key names). */
    TmuxTerminal type(String text) throws IOException, InterruptedException {
        tmux(List.of("send-keys", "-t", session, "-l", text));
        return this;
    }

    /** Presses keys by tmux name: {@code Enter}, {@code C-c}, {@code C-d}, {@code Tab}, {@code d}. */
    TmuxTerminal keys(String... names) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", session));
        args.addAll(List.of(names));
        tmux(args);
        return this;
    }

    /** Types a line and presses Enter. */
    TmuxTerminal line(String text) throws IOException, InterruptedException {
        return type(text).keys("Enter");
    }

    /** The visible screen, one string with a line per row (trailing blanks cut). */
    String screen() throws IOException, InterruptedException {
        return tmux(List.of("capture-pane", "-p", "-t", session));
    }

    /** The screen and its scrollback, with colours as escape sequences ({@code -e}). */
    String screenWithColours() throws IOException, InterruptedException {
        return tmux(List.of("capture-pane", "-p", "-e", "-S", "-", "-t", session));
    }

    /** The screen and its whole scrollback. */
    String history() throws IOException, InterruptedException {
        return tmux(List.of("capture-pane", "-p", "-S", "-", "-t", session));
    }

    /** Waits (bounded) until the screen and scrollback satisfy {@code test}; returns that screen. */
    String await(String what, Predicate<String> test) {
        return org.awaitility.Awaitility.await().alias(what).atMost(BOUND).pollInterval(Duration.ofMillis(100)).until(this::history, test);
    }

    /** Waits until {@code text} appears {@code times} times on the screen or in its scrollback. */
    String awaitCount(String text, int times) {
        return await(times + " × '" + text + "'", s -> count(s, text) >= times);
    }

    static int count(String screen, String text) {
        int n = 0;
        for (int i = screen.indexOf(text); i >= 0; i = screen.indexOf(text, i + text.length())) {
            n++;
        }
        return n;
    }

    /** Resizes the window. */
    TmuxTerminal resize(int width, int height) throws IOException, InterruptedException {
        tmux(List.of("resize-window", "-t", session, "-x", String.valueOf(width), "-y", String.valueOf(height)));
        return this;
    }

    /** The pid of the program in the window. */
    long pid() throws IOException, InterruptedException {
        return Long.parseLong(tmux(List.of("display-message", "-p", "-t", session, "#{pane_pid}")).strip());
    }

    /** Waits (bounded) until the program has ended, and returns its exit status (128 + N when signal N ended it). */
    int awaitExit() {
        String dead = org.awaitility.Awaitility.await().alias("the program ends").atMost(BOUND)
                .pollInterval(Duration.ofMillis(100)).until(this::deadState, s -> s.startsWith("1|") && !s.equals("1||"));
        String[] f = dead.split("\\|", -1);
        return f[1].isEmpty() ? 128 + Integer.parseInt(f[2]) : Integer.parseInt(f[1]);
    }

    /**
     * {@code dead|status|signal} of the pane. tmux 3.3a sometimes misses the SIGCHLD of a pane
     * program that exits right after closing its terminal: the pane is dead ({@code 1||}) while the
     * program stays an unreaped zombie, and only another SIGCHLD makes tmux collect its status. So a
     * dead pane without a status whose program is a zombie gets tmux that signal again; the status
     * read is still the real program's.
     */
    private String deadState() throws IOException, InterruptedException {
        String state = tmux(List.of("display-message", "-p", "-t", session,
                "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}")).strip();
        if (state.equals("1||")) {
            if (isZombie(pid())) {
                String server = tmux(List.of("display-message", "-p", "#{pid}")).strip();
                new ProcessBuilder("kill", "-CHLD", server).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            }
        }
        return state;
    }

    private static boolean isZombie(long pid) throws IOException {
        try {
            // the state follows the command's name in parentheses, which may itself hold ") "
            String stat = java.nio.file.Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            return stat.substring(stat.lastIndexOf(") ") + 2).startsWith("Z");
        } catch (java.nio.file.NoSuchFileException reaped) {
            return false;
        }
    }

    private String tmux(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("tmux " + args + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    /** Ends the tmux server and removes its socket file (tmux leaves it behind). */
    @Override
    public void close() throws IOException, InterruptedException {
        String socketPath = tmux(List.of("display-message", "-p", "#{socket_path}")).strip();
        tmux(List.of("kill-server"));
        if (!socketPath.isEmpty()) {
            java.nio.file.Files.deleteIfExists(Path.of(socketPath));
        }
    }
}
