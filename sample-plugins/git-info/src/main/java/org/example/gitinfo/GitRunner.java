package org.example.gitinfo;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import pi.host.api.ToolCall;

/**
 * Runs one git command at the root of the session's workspace, in the environment
 * {@link GitEnvironment} makes: stdin empty, output bounded, stopped at the call's deadline, killed
 * (with its children) when the call is cancelled. {@link HardenedGit} decides what runs.
 */
final class GitRunner {

    /** Bytes of standard output kept; the rest is read and dropped so git never blocks on a full pipe. */
    static final int MAX_STDOUT = 64 * 1024;
    static final int MAX_STDERR = 8 * 1024;
    /** Stop this long before the host's deadline, so the answer is ours (with what git printed) and not a bare timeout. */
    private static final Duration MARGIN = Duration.ofMillis(500);

    /** How a run ended. */
    record Outcome(int exitCode, String stdout, String stderr, boolean truncated, boolean timedOut, boolean cancelled) {
    }

    private final String executable;
    private final Map<String, String> inherited;

    /** git found on the host's PATH, with the host's environment as the base. */
    GitRunner(String executable) {
        this(executable, System.getenv());
    }

    GitRunner(String executable, Map<String, String> inherited) {
        this.executable = executable;
        this.inherited = Map.copyOf(inherited);
    }

    Outcome run(ToolCall call, List<String> args, List<GitEnvironment.Setting> settings)
            throws IOException, InterruptedException {
        Path root = call.workspaceRoot();
        List<String> command = new ArrayList<>(List.of(executable, "--no-pager", "--literal-pathspecs"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '/' ? "/dev/null" : "NUL")));
        Map<String, String> env = builder.environment();
        env.clear();
        env.putAll(GitEnvironment.of(inherited, root, settings));
        Process process = builder.start();
        AtomicBoolean cancelled = new AtomicBoolean();
        call.onCancel(() -> {
            cancelled.set(true);
            kill(process);
        });
        Capture out = new Capture(process.getInputStream(), MAX_STDOUT);
        Capture err = new Capture(process.getErrorStream(), MAX_STDERR);
        Duration left = Duration.between(Instant.now(), call.deadline()).minus(MARGIN);
        boolean finished = process.waitFor(Math.max(0, left.toMillis()), TimeUnit.MILLISECONDS);
        if (!finished) {
            kill(process);
            process.waitFor(5, TimeUnit.SECONDS);
        }
        out.join();
        err.join();
        return new Outcome(finished ? process.exitValue() : -1, out.text(), err.text(), out.truncated(),
                !finished && !cancelled.get(), cancelled.get());
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

    /** Reads one stream to its end on its own thread, keeping at most {@code limit} bytes. */
    private static final class Capture {
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private final Thread thread;
        private volatile boolean truncated;

        Capture(InputStream in, int limit) {
            thread = new Thread(() -> {
                byte[] buf = new byte[8192];
                try (in) {
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        synchronized (kept) {
                            int room = limit - kept.size();
                            kept.write(buf, 0, Math.min(room, n));
                            truncated |= n > room;
                        }
                    }
                } catch (IOException e) {
                    // the process was killed: keep what arrived
                }
            }, "git-info-capture");
            thread.setDaemon(true);
            thread.start();
        }

        void join() throws InterruptedException {
            thread.join(2000); // bounded: a stray grandchild holding the pipe must not hold the call
        }

        boolean truncated() {
            return truncated;
        }

        String text() {
            synchronized (kept) {
                return kept.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
