package pi.host.console.internal.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import pi.host.core.rpc.RpcConnection;
import pi.host.core.rpc.RpcEndpoint;

/**
 * The console's JSON-RPC conversation with the host, through the same in-process
 * {@link RpcEndpoint} the stdio server uses: the same methods, the same notifications, the same
 * pipeline as the desktop. Requests go out with {@link RpcConnection#receive(String)}, so the host
 * runs them on its own threads and the console's thread stays free to answer the cards a running
 * call raises.
 */
public final class HostClient implements AutoCloseable {

    private final ObjectMapper json = new ObjectMapper();
    private final Map<Long, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final BiConsumer<String, JsonNode> notifications;
    private final RpcConnection connection;
    private volatile boolean closed;

    /**
     * @param notifications receives every notification (method, params) on the host's thread that
     *        sent it; must be quick (the host's calls to it never overlap)
     */
    public HostClient(RpcEndpoint endpoint, BiConsumer<String, JsonNode> notifications) {
        this.notifications = notifications;
        this.connection = endpoint.connect(this::received);
    }

    /** A fresh params object. */
    public ObjectNode params() {
        return json.createObjectNode();
    }

    public ObjectMapper json() {
        return json;
    }

    /** Sends a request; the future completes with its result or fails with an {@link RpcError}. */
    public CompletableFuture<JsonNode> send(String method, ObjectNode params) {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        if (closed) {
            answer.completeExceptionally(new RpcError(-32000, "the host has stopped", null));
            return answer;
        }
        waiting.put(id, answer);
        ObjectNode request = json.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        connection.receive(request.toString());
        return answer;
    }

    /** Sends a request and waits for its result. */
    public JsonNode call(String method, ObjectNode params) throws RpcError, InterruptedException {
        try {
            return send(method, params).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RpcError error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void received(String line) {
        JsonNode message;
        try {
            message = json.readTree(line);
        } catch (JsonProcessingException e) {
            return; // the host writes JSON; nothing sensible to do with anything else
        }
        JsonNode id = message.get("id");
        if (id == null || id.isNull()) {
            if (message.hasNonNull("method")) {
                notifications.accept(message.get("method").asText(), message.path("params"));
            }
            return;
        }
        CompletableFuture<JsonNode> answer = waiting.remove(id.asLong());
        if (answer == null) {
            return;
        }
        JsonNode error = message.get("error");
        if (error != null) {
            answer.completeExceptionally(new RpcError(error.path("code").asInt(),
                    error.path("message").asText(""), error.path("data").path("errorCode").textValue()));
        } else {
            answer.complete(message.path("result"));
        }
    }

    /** Stops listening; every request still waiting fails. */
    @Override
    public void close() {
        closed = true;
        connection.close();
        RpcError gone = new RpcError(-32000, "the host has stopped", null);
        waiting.values().forEach(f -> f.completeExceptionally(gone));
        waiting.clear();
    }
}
