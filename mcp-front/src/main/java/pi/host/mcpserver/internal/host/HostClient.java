package pi.host.mcpserver.internal.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import pi.host.core.rpc.RpcConnection;
import pi.host.core.rpc.RpcEndpoint;

/**
 * One JSON-RPC connection to the host, as the desktop has one: the front asks the host exactly what
 * any client may ask ({@code session.create}, {@code tools.execute}, {@code tools.abort},
 * {@code permissions.resolve}, ...), and hears the notifications every client hears. Requests run on
 * the calling thread ({@link RpcConnection#receiveOnCallingThread}), so a call costs no thread hand-off.
 */
public final class HostClient implements AutoCloseable {

    /** Receives the host's notifications; must be quick (it runs on the host's publishing thread). */
    @FunctionalInterface
    public interface Listener {
        void notification(String method, JsonNode params);
    }

    static final ObjectMapper JSON = new ObjectMapper();

    private final RpcConnection connection;
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private static final String NOTIFICATION_PREFIX = "{\"jsonrpc\":\"2.0\",\"method\":\"";

    private volatile Listener listener = (m, p) -> { };
    private volatile java.util.Set<String> wanted = java.util.Set.of();

    public HostClient(RpcEndpoint endpoint) {
        this.connection = endpoint.connect(this::onMessage);
    }

    /** Hands the notifications named in {@code methods} to {@code l}; the others are dropped unparsed. */
    public void listen(java.util.Set<String> methods, Listener l) {
        this.wanted = java.util.Set.copyOf(methods);
        this.listener = l;
    }

    /** Sends one request and returns its result; a JSON-RPC error becomes {@link HostError}. */
    public JsonNode call(String method, ObjectNode params) throws HostError {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        try {
            connection.receiveOnCallingThread(JSON.writeValueAsString(request));
            // answered before receiveOnCallingThread returns; get() only unwraps
            return result(answer.get());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("unserialisable params for " + method, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostError(HostError.INTERNAL, "interrupted while calling " + method, null);
        } catch (ExecutionException e) {
            throw new HostError(HostError.INTERNAL, String.valueOf(e.getCause()), null);
        } finally {
            pending.remove(id);
        }
    }

    /** A fresh params object. */
    public static ObjectNode params() {
        return JSON.createObjectNode();
    }

    public static ObjectMapper json() {
        return JSON;
    }

    private static JsonNode result(JsonNode response) throws HostError {
        JsonNode error = response.get("error");
        if (error != null) {
            JsonNode code = error.path("data").get("errorCode");
            throw new HostError(error.path("code").asInt(HostError.INTERNAL), error.path("message").asText(""),
                    code == null ? null : code.asText());
        }
        return response.path("result");
    }

    private void onMessage(String text) {
        if (text.startsWith(NOTIFICATION_PREFIX)) {
            // every call ends with a tool.completed for every client: skip the ones nobody here reads
            int end = text.indexOf('"', NOTIFICATION_PREFIX.length());
            if (end > 0 && !wanted.contains(text.substring(NOTIFICATION_PREFIX.length(), end))) {
                return;
            }
        }
        JsonNode message;
        try {
            message = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return; // the host writes only JSON; nothing to route
        }
        JsonNode id = message.get("id");
        if (id != null && !id.isNull() && !message.has("method")) {
            CompletableFuture<JsonNode> waiting = pending.get(id.asLong());
            if (waiting != null) {
                waiting.complete(message);
            }
            return;
        }
        JsonNode method = message.get("method");
        if (method != null) {
            listener.notification(method.asText(), message.path("params"));
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
