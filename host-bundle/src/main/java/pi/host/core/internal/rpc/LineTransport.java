package pi.host.core.internal.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import pi.host.core.rpc.RpcConnection;

/**
 * Feeds a line stream to one connection with leader/follower threads: the thread that read a
 * request runs it itself, after handing the reading of the next lines to another thread of
 * {@code threads}. The wake-up of that next reader then happens while this request runs, not
 * before it, and no request waits for a hand-off to a worker. A request that never blocks (an inline
 * method, bad input) is answered by the reader, which keeps reading; a batch runs on the host's pool
 * while the thread that read it waits for its answer, the reading handed on as for a request.
 *
 * <p>Some thread is always reading while the input is open, so a request that waits (on a permission
 * card, a slow tool) never stops the {@code permissions.resolve} or {@code tools.abort} that ends it
 * from being read. The reader's state is touched by one thread at a time (see {@link LineReader}).
 */
final class LineTransport {

    private final LineReader lines;
    private final RpcConnection connection;
    private final Executor threads;
    private final int maxLine;
    private final Runnable atEnd;
    private final LineReader.Handler handler = new LineReader.Handler() {
        @Override
        public boolean line(byte[] buffer, int offset, int length) {
            HandOff handOff = new HandOff();
            connection.receiveOnCallingThread(buffer, offset, length, handOff);
            if (handOff.done) {
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
        this.lines = new LineReader(in, maxLine);
        this.maxLine = maxLine;
        this.connection = connection;
        this.threads = threads;
        this.atEnd = atEnd;
    }

    /** Starts reading on a thread of {@code threads}. */
    void start() {
        threads.execute(this::lead);
    }

    /** Reads until the end of input, or until a request takes this thread (the reading goes on elsewhere). */
    private void lead() {
        boolean ended;
        try {
            ended = lines.run(handler);
        } catch (IOException | RuntimeException e) {
            // a failed read, or an answer that could not be written (the client closed its end): no
            // thread would read on, so this is the end of input, not a reader that silently died
            System.getLogger(LineTransport.class.getName()).log(System.Logger.Level.WARNING, "input failed", e);
            ended = true;
        }
        if (ended) {
            atEnd.run();
        }
    }

    /** Gives the reading to another thread; if none can be had (the host is stopping), this one keeps it. */
    private final class HandOff implements Runnable {
        boolean done;

        @Override
        public void run() {
            try {
                threads.execute(LineTransport.this::lead);
                done = true;
            } catch (RejectedExecutionException e) {
                // reading resumes on this thread once its request is answered
            }
        }
    }
}
