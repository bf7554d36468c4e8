package pi.host.core.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-process client's JSON-RPC conversation with the host, through the same {@link RpcEndpoint}
 * the stdio server uses: the same methods, notifications and pipeline as the desktop, nothing more.
 * The terminal console and the MCP front are such clients.
 *
 * <p>Two ways to ask: {@link #send} hands the request to the host's threads and returns a future,
 * so the caller's thread stays free (to answer the cards a running call raises);
 * {@link #callOnCallingThread} runs the request on the caller's thread, with no hand-off, for a
 * client that brings its own threads.
 */
public final class HostClient implements AutoCloseable {

    /** Receives the host's notifications; must be quick (it runs on the host's publishing thread). */
    @FunctionalInterface
    public interface Listener {
        void notification(String method, JsonNode params);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NOTIFICATION_PREFIX = "{\"jsonrpc\":\"2.0\",\"method\":\"";

    private final Map<Long, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final RpcConnection connection;
    private volatile Listener listener = (m, p) -> { };
    private volatile Set<String> wanted; // null: every notification
    private volatile boolean closed;

    public HostClient(RpcEndpoint endpoint) {
        this.connection = endpoint.connect(this::received);
    }

    /** Hands every notification to {@code l}. */
    public void listen(Listener l) {
        this.wanted = null;
        this.listener = l;
    }

    /** Hands the notifications named in {@code methods} to {@code l}; the others are dropped unparsed. */
    public void listen(Set<String> methods, Listener l) {
        this.wanted = Set.copyOf(methods);
        this.listener = l;
    }

    /** A fresh params object. */
    public static ObjectNode params() {
        return JSON.createObjectNode();
    }

    public static ObjectMapper json() {
        return JSON;
    }

    /** Sends a request to the host's threads; the future completes with its result or fails with a {@link HostError}. */
    public CompletableFuture<JsonNode> send(String method, ObjectNode params) {
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        if (closed) {
            answer.completeExceptionally(stopped());
            return answer;
        }
        waiting.put(id, answer);
        connection.receive(request(id, method, params));
        return answer;
    }

    /** Sends a request to the host's threads and waits for its result. */
    public JsonNode call(String method, ObjectNode params) throws HostError, InterruptedException {
        try {
            return send(method, params).get();
        } catch (ExecutionException e) {
            throw unwrap(e, method);
        }
    }

    /** Runs a request on this thread and returns its result; it has been answered when the host returns. */
    public JsonNode callOnCallingThread(String method, ObjectNode params) throws HostError {
        if (closed) {
            throw stopped();
        }
        long id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        try {
            connection.receiveOnCallingThread(request(id, method, params));
            return answer.get(); // complete already: get() only unwraps
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostError(HostError.INTERNAL, "interrupted while calling " + method, null);
        } catch (ExecutionException e) {
            throw unwrap(e, method);
        } finally {
            waiting.remove(id);
        }
    }

    /** Stops listening; every request still waiting fails with {@link HostError#STOPPED}. */
    @Override
    public void close() {
        closed = true;
        connection.close();
        HostError gone = stopped();
        waiting.values().forEach(f -> f.completeExceptionally(gone));
        waiting.clear();
    }

    private static String request(long id, String method, ObjectNode params) {
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        return request.toString();
    }

    private void received(String line) {
        Set<String> only = wanted;
        if (only != null && line.startsWith(NOTIFICATION_PREFIX)) {
            // every call ends with notifications for every client: skip the unwanted ones unparsed
            int end = line.indexOf('"', NOTIFICATION_PREFIX.length());
            if (end > 0 && !only.contains(line.substring(NOTIFICATION_PREFIX.length(), end))) {
                return;
            }
        }
        JsonNode message;
        try {
            message = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return; // the host writes only JSON; nothing to route
        }
        JsonNode method = message.get("method");
        if (method != null) {
            if (only == null || only.contains(method.asText())) {
                listener.notification(method.asText(), message.path("params"));
            }
            return;
        }
        JsonNode id = message.get("id");
        CompletableFuture<JsonNode> answer = id == null || id.isNull() ? null : waiting.remove(id.asLong());
        if (answer == null) {
            return;
        }
        JsonNode error = message.get("error");
        if (error != null) {
            answer.completeExceptionally(new HostError(error.path("code").asInt(HostError.INTERNAL),
                    error.path("message").asText(""), error.path("data").path("errorCode").textValue()));
        } else {
            answer.complete(message.path("result"));
        }
    }

    private static HostError unwrap(ExecutionException e, String method) {
        if (e.getCause() instanceof HostError error) {
            return error;
        }
        return new HostError(HostError.INTERNAL, method + ": " + e.getCause(), null);
    }

    private static HostError stopped() {
        return new HostError(HostError.STOPPED, "the host has stopped", null);
    }
}
