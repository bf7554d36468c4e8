package pi.host.core.rpc;

import org.osgi.annotation.versioning.ProviderType;

/** One client's JSON-RPC conversation with the host. */
@ProviderType
public interface RpcConnection extends AutoCloseable {

    /** Handles one received line (a request, a notification or a batch), given as UTF-8 bytes. */
    void receive(byte[] line, int offset, int length);

    /** Handles one received line. */
    void receive(String line);

    /** Answers a line that was over the size bound and was skipped unread. */
    void receiveOversized(long length, long limit);

    /** Waits until every request received so far has been answered, at most {@code millis}. */
    boolean awaitIdle(long millis) throws InterruptedException;

    /** Stops delivering output; requests still running finish without being answered. */
    @Override
    void close();
}
