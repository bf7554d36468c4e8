package pi.host.tools.internal.process;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that serve running commands (drain their streams, wait for their exit, kill their
 * trees), shared by every command.
 * Starting a thread costs a round trip through the scheduler (the starter waits until the new
 * thread runs), which on a busy two-core machine was about half a millisecond each, three per
 * command; handing work to an idle pooled thread costs neither.
 *
 * <p>Not bounded on purpose: each task blocks for as long as its command (or a descendant holding
 * the pipe) runs, so a cap would let commands starve each other's pumps. How many run at once
 * follows how many commands run (foreground calls the host admitted, background tasks within their
 * limits); idle threads end after {@link #IDLE_SECONDS}.
 */
public final class CommandThreads implements AutoCloseable {

    static final long IDLE_SECONDS = 60;

    private final ExecutorService pool;

    public CommandThreads() {
        AtomicInteger n = new AtomicInteger();
        pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, "pi-command-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * Runs {@code task} on an idle pooled thread (a new one when none is idle), named {@code name}
     * while it runs so that thread dumps say which command it serves.
     */
    public void execute(String name, Runnable task) {
        pool.execute(() -> {
            Thread self = Thread.currentThread();
            String idle = self.getName();
            self.setName(name);
            try {
                task.run();
            } finally {
                self.setName(idle);
            }
        });
    }

    /** Interrupts the running tasks (blocked pipe reads end when their process is killed or the stream closed). */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
