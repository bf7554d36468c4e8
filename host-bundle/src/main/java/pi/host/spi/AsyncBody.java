package pi.host.spi;

import java.util.concurrent.CompletionStage;
import org.osgi.annotation.versioning.ConsumerType;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;

/**
 * A host bundle's tool whose result comes from a thread of its own (the MCP bridge: the SDK's reader
 * thread receives the server's answer). The host starts the body with {@link #start} on the calling
 * thread and ends the call from whichever thread completes the stage, so no thread is parked to wait
 * for the answer only to be woken to write it. The call's timeout, abort, audit row and answer are the
 * pipeline's, as for any other body: a timeout answers at once; an abort waits for the stage, which the
 * tool completes when its {@link ToolCall#onCancel} action has run. Honoured for the host's own bundles
 * only (nothing else is wired to this package).
 */
@ConsumerType
public interface AsyncBody extends ToolProvider {

    /**
     * Starts the call and returns at once; the stage completes with the result (a failed stage is a
     * {@code TOOL_FAILED}). Must not block.
     */
    CompletionStage<ToolResult> start(ToolCall call);

    /** The same call, waited for: the host always uses {@link #start}; this serves any other caller. */
    @Override
    default ToolResult execute(ToolCall call) throws Exception {
        return start(call).toCompletableFuture().get();
    }
}
