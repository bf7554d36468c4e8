package pi.host.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The console gives up the host's controlling terminal so that no program the host starts inherits
 * it (the console bundle's TerminalDetach). A process that leads its session cannot do that without
 * hanging the terminal up, and it leads its session whenever it was started directly as a
 * terminal's program ({@code tmux new-session pi-host console}, {@code ssh host pi-host console},
 * {@code xterm -e}). Then the launcher runs the console in a child JVM (same command line, same
 * terminal, not a session leader) and only waits for it: Ctrl-C is the child's, a hang-up or SIGTERM
 * is passed on.
 */
final class TerminalSession {

    /** Set in the child's environment: it runs the console itself. */
    static final String CHILD = "PI_HOST_CONSOLE_CHILD";

    private TerminalSession() {
    }

    /** Whether stdin is a terminal (Linux: where {@code /proc/self/fd/0} points; elsewhere: a console exists). */
    static boolean stdinIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return System.console() != null;
        }
    }

    /** Whether this process leads its session (Linux: {@code /proc/self/stat}; elsewhere assumed not). */
    static boolean leadsSession() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after the command: state, ppid, pgrp, session
            return Long.parseLong(fields[3]) == ProcessHandle.current().pid();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Runs this same command line as a child on the same terminal and returns its exit code. */
    static int runAsChild() throws IOException, InterruptedException {
        ProcessHandle.Info info = ProcessHandle.current().info();
        List<String> command = new ArrayList<>();
        command.add(info.command().orElseThrow(() -> new IOException("this process's command is unknown")));
        command.addAll(List.of(info.arguments().orElse(new String[0])));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().put(CHILD, "1");
        // Ctrl-C reaches the whole foreground group: it is the console's, not a reason for this one to end
        sun.misc.Signal.handle(new sun.misc.Signal("INT"), signal -> {
        });
        Process child = builder.start();
        Thread hook = new Thread(() -> {
            child.destroy();
            try {
                child.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "pi-host-console-parent");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = child.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyExiting) {
            // the hook is running
        }
        return code;
    }
}
