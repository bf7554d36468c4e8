package pi.host.core.rpc;

import java.util.function.Consumer;
import org.osgi.annotation.versioning.ProviderType;

/** Opens JSON-RPC connections to the host (PROTOCOL.md). */
@ProviderType
public interface RpcEndpoint {

    /**
     * Opens a connection. Every response and notification for it is handed to {@code out} as one
     * complete JSON text without the line end; calls to {@code out} never overlap.
     */
    RpcConnection connect(Consumer<String> out);
}
