package pi.host.mcp.internal.server;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK transport of one server, seen from the bridge: when the server last sent anything (the health
 * check asks for a ping when a call waits and the server has been silent), and the JSON-RPC id the SDK
 * gave each {@code tools/call}, found by the progress token the bridge puts in the call's {@code _meta}.
 * The id is what an MCP cancellation names; the SDK (2.1.0) sends none itself, so {@link #cancel} does.
 *
 * <p>Every message goes to the SDK transport one at a time ({@link #sendMessage}): the stdio transport
 * puts it into its outbound sink right in that call, and the sink takes one emitter at a time: a second
 * thread spins for 100 ms and then gets "Failed to enqueue message" (the request is lost and its call
 * waits for its timeout). Two of the host's threads get there together when two sessions call tools of
 * one server, or when the thread of the last request is preempted inside the sink; under the lock the
 * second one parks instead. The lock is held only for the hand-over (the SDK's writer thread writes;
 * the streamable HTTP transport's send is lazy, so there the lock covers only making it).
 */
final class ObservedTransport implements McpClientTransport {

    private final McpClientTransport delegate;
    private final Map<Object, Object> requestIds = new ConcurrentHashMap<>();
    private final Object sending = new Object();
    private volatile long lastInbound = System.nanoTime();

    ObservedTransport(McpClientTransport delegate) {
        this.delegate = delegate;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return delegate.connect(inbound -> handler.apply(inbound.doOnNext(m -> lastInbound = System.nanoTime())));
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest r && r.params() instanceof McpSchema.CallToolRequest call
                && call.meta() != null && call.meta().get("progressToken") != null) {
            requestIds.put(call.meta().get("progressToken"), r.id());
        }
        synchronized (sending) {
            return delegate.sendMessage(message);
        }
    }

    /** Nanos ({@link System#nanoTime}) of the last message from the server. */
    long lastInbound() {
        return lastInbound;
    }

    /** Forgets a finished call's id. */
    void done(Object progressToken) {
        requestIds.remove(progressToken);
    }

    /** Sends {@code notifications/cancelled} for the call with this progress token, if it was sent. */
    void cancel(Object progressToken, String reason) {
        Object id = requestIds.remove(progressToken);
        if (id != null) {
            sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
                    "notifications/cancelled", Map.of("requestId", id, "reason", reason)))
                    .onErrorResume(e -> Mono.empty()).subscribe();
        }
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return delegate.unmarshalFrom(data, typeRef);
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }
}
