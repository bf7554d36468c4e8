package pi.host.tools.internal.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Platform;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Starts a command through {@link ProcessBuilder} with stdout and stderr on pipes of the host's
 * own rather than the JDK's. The JDK drains its pipes into a buffer and closes them when the
 * direct child exits ({@code ProcessImpl}'s {@code processExited}, unless a read happens to be in
 * flight at that instant): a reader then meets the end of the output although a background
 * grandchild still holds the write end, and whatever that grandchild writes later is lost. With
 * these pipes the end is the last writer's close, as on {@link NativeSpawn}'s.
 *
 * <p>The child gets each write end by path ({@code /dev/fd/N}), which ProcessBuilder opens in
 * the host and closes after the start: no reflection into the JDK. The read ends are close-on-exec
 * and every spawner in the host closes descriptors above 2 in its children anyway, so no other
 * child holds them.
 */
final class OwnPipes {

    private static final String[] FD_DIRS = {"/dev/fd", "/proc/self/fd"};

    private final String fdDir;

    private OwnPipes(String fdDir) {
        this.fdDir = fdDir;
    }

    /** Own pipes where libc binds and the host can name its descriptors by path, else empty. */
    static Optional<OwnPipes> load() {
        if (Platform.isWindows()) {
            return Optional.empty();
        }
        for (String dir : FD_DIRS) {
            if (new File(dir).isDirectory()) {
                try {
                    Posix.close(-1); // binds the class now: a failure shows here, not in the middle of a start
                    return Optional.of(new OwnPipes(dir));
                } catch (LinkageError e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Starts {@code builder}; its stdout and stderr that are {@code PIPE} become pipes of ours. The
     * caller reads both to their end and closes them (an unread pipe of ours stays open until then).
     */
    Process start(ProcessBuilder builder) throws IOException {
        ProcessBuilder.Redirect outWas = builder.redirectOutput();
        ProcessBuilder.Redirect errWas = builder.redirectError();
        int[] out = null;
        int[] err = null;
        boolean started = false;
        try {
            out = pipeFor(outWas);
            err = builder.redirectErrorStream() ? null : pipeFor(errWas);
            if (out != null) {
                builder.redirectOutput(ProcessBuilder.Redirect.to(path(out[1])));
            }
            if (err != null) {
                builder.redirectError(ProcessBuilder.Redirect.to(path(err[1])));
            }
            Process process = builder.start();
            started = true;
            return new OwnPipeProcess(process, out == null ? process.getInputStream() : new PipeInputStream(out[0]),
                    err == null ? process.getErrorStream() : new PipeInputStream(err[0]));
        } finally {
            // the child has its own copies now (or never started); the builder is the caller's again
            builder.redirectOutput(outWas).redirectError(errWas);
            close(out, 1);
            close(err, 1);
            if (!started) {
                close(out, 0);
                close(err, 0);
            }
        }
    }

    private File path(int fd) {
        return new File(fdDir, Integer.toString(fd));
    }

    private static int[] pipeFor(ProcessBuilder.Redirect r) throws IOException {
        if (r.type() != ProcessBuilder.Redirect.Type.PIPE) {
            return null;
        }
        int[] fds = new int[2];
        try {
            Posix.pipe(fds);
        } catch (LastErrorException e) {
            throw new IOException("pipe failed: " + Posix.strerror(e.getErrorCode()), e);
        }
        if (!Posix.closeOnExec(fds[0]) || !Posix.closeOnExec(fds[1])) {
            Posix.close(fds[0]);
            Posix.close(fds[1]);
            throw new IOException("could not mark a pipe close-on-exec");
        }
        return fds;
    }

    private static void close(int[] pipe, int end) {
        if (pipe != null && pipe[end] >= 0) {
            Posix.close(pipe[end]);
            pipe[end] = -1;
        }
    }

    /** The JDK's process with our read ends as its output streams. */
    private static final class OwnPipeProcess extends Process {

        private final Process process;
        private final InputStream stdout;
        private final InputStream stderr;

        OwnPipeProcess(Process process, InputStream stdout, InputStream stderr) {
            this.process = process;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        @Override
        public InputStream getInputStream() {
            return stdout;
        }

        @Override
        public InputStream getErrorStream() {
            return stderr;
        }

        @Override
        public OutputStream getOutputStream() {
            return process.getOutputStream();
        }

        @Override
        public int waitFor() throws InterruptedException {
            return process.waitFor();
        }

        @Override
        public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
            return process.waitFor(timeout, unit);
        }

        @Override
        public int exitValue() {
            return process.exitValue();
        }

        @Override
        public void destroy() {
            process.destroy();
        }

        @Override
        public Process destroyForcibly() {
            process.destroyForcibly();
            return this;
        }

        @Override
        public boolean supportsNormalTermination() {
            return process.supportsNormalTermination();
        }

        @Override
        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public long pid() {
            return process.pid();
        }

        @Override
        public CompletableFuture<Process> onExit() {
            return process.onExit().thenApply(p -> this);
        }

        @Override
        public ProcessHandle toHandle() {
            return process.toHandle();
        }

        @Override
        public String toString() {
            return "OwnPipeProcess[" + process + "]";
        }
    }
}
