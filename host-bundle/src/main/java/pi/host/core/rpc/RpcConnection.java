package pi.host.core.rpc;

import org.osgi.annotation.versioning.ProviderType;

/**
 * One client's JSON-RPC conversation with the host.
 *
 * <p>A line can be handed over in two ways. {@link #receive(byte[], int, int) receive} returns at
 * once and the host runs the requests on its own threads (a method that never blocks, such as
 * {@code tools.abort}, on the receiving thread). {@link #receiveOnCallingThread(byte[], int, int,
 * Runnable) receiveOnCallingThread} is for a client that brings its own threads: the request runs on
 * the calling thread and its answer has gone through {@code out} when the call returns, with no
 * thread hand-off on the way.
 */
@ProviderType
public interface RpcConnection extends AutoCloseable {

    /** Handles one received line (a request, a notification or a batch), given as UTF-8 bytes. */
    void receive(byte[] line, int offset, int length);

    /** Handles one received line. */
    void receive(String line);

    /**
     * Handles one received line on the calling thread and returns once it is answered: a request
     * runs on this thread (a batch's requests run on the host's threads while this one waits for
     * the batch's answer), and every response to the line has been handed to {@code out} before
     * this returns. Bad input is answered exactly as by {@link #receive(byte[], int, int)}.
     *
     * <p>The call lasts as long as the request: a {@code tools.execute} that waits on a permission
     * card or runs a slow tool blocks the caller until it ends, so the {@code permissions.resolve}
     * or {@code tools.abort} that ends that wait must come from another thread.
     *
     * @param beforeBlocking run at most once, on this thread, once the line has been parsed (its
     *        bytes are not read again) and before this thread may block: before a request that may
     *        block runs here, before a batch, or before waiting for an answer another thread gives. A transport
     *        that reads lines may give its reading to another thread from here on (at once, or once
     *        the request has run a while), so that the next lines are read while this one runs. Not run for a line answered without blocking (an inline
     *        method, bad input).
     */
    void receiveOnCallingThread(byte[] line, int offset, int length, Runnable beforeBlocking);

    /** {@link #receiveOnCallingThread(byte[], int, int, Runnable)} of a line given as a string, with nothing to run before blocking. */
    void receiveOnCallingThread(String line);

    /** Answers a line that was over the size bound and was skipped unread. */
    void receiveOversized(long length, long limit);

    /** Waits until every request received so far has been answered, at most {@code millis}. */
    boolean awaitIdle(long millis) throws InterruptedException;

    /** Stops delivering output; requests still running finish without being answered. */
    @Override
    void close();
}
