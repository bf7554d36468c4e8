package pi.host.tools.internal.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;

/**
 * A process {@link NativeSpawn} started, as a {@link Process}. Its exit is marked and the child
 * reaped under this object's lock, and signals are only sent under it while the process has not
 * been reaped: a signal can never reach a later process that got the same pid.
 */
final class SpawnedProcess extends Process {

    private static final int SIGTERM = 15;
    private static final int SIGKILL = 9;

    private final long pid;
    private final InputStream stdout;
    private final InputStream stderr;
    private final OutputStream stdin;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    /** Set under the lock with the reap: from then on the pid is not ours to signal. */
    private boolean reaped;

    SpawnedProcess(long pid, InputStream stdout, InputStream stderr) {
        this.pid = pid;
        this.stdout = stdout;
        this.stderr = stderr;
        OutputStream none = OutputStream.nullOutputStream();
        try {
            none.close(); // stdin comes from a file: writing here fails, as ProcessBuilder's own does
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        this.stdin = none;
    }

    /** Called by the waiter once the child exited: reaps it and completes {@link #onExit()}. */
    void exited(IntSupplier reap) {
        int code;
        synchronized (this) {
            code = reap.getAsInt();
            reaped = true;
        }
        exit.complete(code); // outside the lock: dependents run here
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin;
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
    public int waitFor() throws InterruptedException {
        try {
            return exit.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e); // never: exit only completes normally
        }
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            exit.get(timeout, unit);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int exitValue() {
        if (!exit.isDone()) {
            throw new IllegalThreadStateException("process hasn't exited");
        }
        return exit.join();
    }

    @Override
    public void destroy() {
        signal(SIGTERM);
    }

    @Override
    public Process destroyForcibly() {
        signal(SIGKILL);
        return this;
    }

    private synchronized void signal(int sig) {
        if (!reaped) {
            NativeSpawn.LibC.kill((int) pid, sig);
        }
    }

    @Override
    public boolean supportsNormalTermination() {
        return true;
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exit.thenApply(code -> this);
    }

    /** The live process; after its exit the pid may name another process, so there is none. */
    @Override
    public ProcessHandle toHandle() {
        return ProcessHandle.of(pid).filter(h -> isAlive())
                .orElseThrow(() -> new IllegalStateException("process " + pid + " has exited"));
    }

    @Override
    public String toString() {
        return "SpawnedProcess[pid=" + pid + ", exitValue=" + (exit.isDone() ? exit.join() : "\"not exited\"") + "]";
    }
}
