package pi.host.plugins.kit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs {@code mvn} in a plugin module: every output line goes to a sink as it comes, the last lines
 * are kept for the error message, and the build (with its forked test JVMs) is killed on timeout or
 * cancellation.
 */
final class MavenBuild {

    private static final int TAIL_LINES = 60;

    /** How a build ended. */
    record Outcome(int exitCode, String tail, boolean timedOut, boolean cancelled) {
        boolean ok() {
            return exitCode == 0 && !timedOut && !cancelled;
        }
    }

    private final String executable;

    MavenBuild(String executable) {
        this.executable = executable;
    }

    /**
     * Runs the build.
     *
     * @param onCancel registers an action to run when the caller is cancelled (may run it at once)
     */
    Outcome run(Path module, List<String> args, Consumer<String> lines, Duration timeout,
            Consumer<Runnable> onCancel) throws KitException {
        List<String> command = new ArrayList<>();
        command.add(executable);
        command.addAll(args);
        Process process;
        try {
            process = new ProcessBuilder(command).directory(module.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw KitException.failed("could not run Maven (" + executable + "): is it installed and on PATH?", "", e);
        }
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // it reads nothing anyway
        }
        AtomicBoolean cancelled = new AtomicBoolean();
        onCancel.accept(() -> {
            cancelled.set(true);
            kill(process);
        });
        Deque<String> tail = new ArrayDeque<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    synchronized (tail) {
                        if (tail.size() == TAIL_LINES) {
                            tail.removeFirst();
                        }
                        tail.addLast(line);
                    }
                    lines.accept(line);
                }
            } catch (IOException e) {
                // killed: keep what arrived
            }
        }, "pi-plugin-build-output");
        reader.setDaemon(true);
        reader.start();
        boolean finished;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                kill(process);
                process.waitFor(10, TimeUnit.SECONDS);
            }
            reader.join(5000);
        } catch (InterruptedException e) {
            kill(process);
            Thread.currentThread().interrupt();
            throw KitException.failed("interrupted while building", "", e);
        }
        synchronized (tail) {
            return new Outcome(finished ? process.exitValue() : -1, String.join("\n", tail),
                    !finished && !cancelled.get(), cancelled.get());
        }
    }

    /**
     * The process first, then the descendants it had (listed before: once it is gone they are no longer its
     * descendants and would keep the pipes open). Killed after its children, a parent that waits for one (a
     * shell, git, Maven) could run its next step between the kills (docs/security.md, "Stopping a process tree").
     */
    private static void kill(Process process) {
        List<ProcessHandle> below = process.descendants().toList();
        process.destroyForcibly();
        below.forEach(ProcessHandle::destroyForcibly);
    }
}
