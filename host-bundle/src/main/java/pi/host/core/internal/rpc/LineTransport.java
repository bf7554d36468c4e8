package pi.host.core.internal.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import pi.host.core.rpc.RpcConnection;

/**
 * Feeds a line stream to one connection. The thread that read a request runs it itself; the
 * reading is handed to another thread of {@code threads} only if the request is still running
 * after {@link #GRACE_NANOS} (a watchdog thread looks), so a quick request (a Read of a small
 * file) costs no hand-off and no wake-up of another thread, and the next line is read by the same
 * thread once it has answered. A request that never blocks (an inline method, bad input) is
 * answered by the reader, which keeps reading.
 *
 * <p>Some thread reads while the input is open, at the latest {@code 2 × GRACE_NANOS} after a
 * request started, so a request that waits (on a permission card, a slow tool) never stops the
 * {@code permissions.resolve} or {@code tools.abort} that ends it from being read. The price: a line
 * that arrives while the reader runs a request is read when that request ends or the grace is up.
 * The reader's state is touched by one thread at a time (see {@link LineReader}).
 */
final class LineTransport {

    /** How long a request may run on the reading thread before the reading moves to another thread. */
    static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The watchdog stops looking (parks until the next request) after this long without a request. */
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final LineReader lines;
    private final RpcConnection connection;
    private final Executor threads;
    private final int maxLine;
    private final Runnable atEnd;
    private final long graceNanos;
    /** The request running on the reading thread, while it may still give the reading away. */
    private final AtomicReference<Request> current = new AtomicReference<>();
    private volatile long lastStart;
    private volatile boolean ended;
    private volatile boolean watchdogParked;
    private final Thread watchdog;
    private final LineReader.Handler handler = new LineReader.Handler() {
        @Override
        public boolean line(byte[] buffer, int offset, int length) {
            Request request = new Request();
            connection.receiveOnCallingThread(buffer, offset, length, request);
            if (!request.keepReading()) {
                return false; // another thread reads now; this one ran its request and is done
            }
            Thread.interrupted(); // a request's interrupt must not reach the next line's
            return true;
        }

        @Override
        public void oversized(long length) {
            connection.receiveOversized(length, maxLine);
        }
    };

    /**
     * @param atEnd run once, by the thread that finds the end of input (or a read failure), after
     *        every line before it has been received
     */
    LineTransport(InputStream in, int maxLine, RpcConnection connection, Executor threads, Runnable atEnd) {
        this(in, maxLine, connection, threads, atEnd, GRACE_NANOS);
    }

    LineTransport(InputStream in, int maxLine, RpcConnection connection, Executor threads, Runnable atEnd,
            long graceNanos) {
        this.graceNanos = graceNanos;
        this.lines = new LineReader(in, maxLine);
        this.maxLine = maxLine;
        this.connection = connection;
        this.threads = threads;
        this.atEnd = atEnd;
        this.watchdog = new Thread(this::watch, "pi-stdio-watchdog");
        watchdog.setDaemon(true);
    }

    /** Starts reading on a thread of {@code threads}. */
    void start() {
        watchdog.start();
        threads.execute(this::lead);
    }

    /** Stops the watchdog (the host is stopping); reading threads end with the input. */
    void stop() {
        ended = true;
        LockSupport.unpark(watchdog);
    }

    /** Reads until the end of input, or until the reading moved to another thread during a request. */
    private void lead() {
        boolean endOfInput;
        try {
            endOfInput = lines.run(handler);
        } catch (IOException | RuntimeException e) {
            // a failed read, or an answer that could not be written (the client closed its end): no
            // thread would read on, so this is the end of input, not a reader that silently died
            System.getLogger(LineTransport.class.getName()).log(System.Logger.Level.WARNING, "input failed", e);
            endOfInput = true;
        }
        if (endOfInput) {
            ended = true;
            LockSupport.unpark(watchdog);
            atEnd.run();
        }
    }

    /**
     * Gives the reading of a request that has run too long to another thread. Polls while requests
     * come (a park of {@link #GRACE_NANOS} at a time: no per-request wake-up), and parks until the
     * next request once none has started for {@link #QUIET_NANOS}.
     */
    private void watch() {
        while (!ended) {
            Request r = current.get();
            long now = System.nanoTime();
            if (r != null && now - r.started >= graceNanos) {
                r.handOff();
            }
            if (r == null && now - lastStart > QUIET_NANOS) {
                watchdogParked = true;
                if (current.get() == null && !ended) {
                    LockSupport.park(this);
                }
                watchdogParked = false;
            } else {
                LockSupport.parkNanos(this, Math.min(graceNanos, GRACE_NANOS));
            }
        }
    }

    /**
     * One line's request on the reading thread: the connection runs this (beforeBlocking) when
     * the request may block, and from then on the watchdog may give the reading away.
     */
    private final class Request implements Runnable {
        private static final int READING = 0;
        private static final int RUNNING = 1;
        private static final int HANDING = 2;
        private static final int HANDED = 3;
        private static final int DONE = 4;

        private final AtomicInteger state = new AtomicInteger(READING);
        volatile long started;

        @Override
        public void run() {
            started = System.nanoTime();
            lastStart = started;
            state.set(RUNNING);
            current.set(this);
            // the watchdog parks only once no request is current: one of the two sees the other
            if (watchdogParked) {
                LockSupport.unpark(watchdog);
            }
        }

        /** By the watchdog: the reading goes to another thread; if none can be had (the host is stopping), it stays. */
        void handOff() {
            if (!state.compareAndSet(RUNNING, HANDING)) {
                return;
            }
            try {
                threads.execute(LineTransport.this::lead);
                state.set(HANDED);
            } catch (RejectedExecutionException e) {
                state.set(RUNNING); // this thread reads on once its request is answered
            }
            current.compareAndSet(this, null); // a request the new reader started stays watched
        }

        /** By the reading thread once the request is answered: true if it still reads. */
        boolean keepReading() {
            while (true) {
                int s = state.get();
                if (s == READING) {
                    return true; // answered without blocking: never handed over
                }
                if (s == RUNNING && state.compareAndSet(RUNNING, DONE)) {
                    current.compareAndSet(this, null);
                    return true;
                }
                if (s == HANDED) {
                    return false;
                }
                Thread.onSpinWait(); // the watchdog is handing over right now
            }
        }
    }
}
