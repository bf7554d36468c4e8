package pi.host.it;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import pi.host.core.rpc.RpcConnection;
import pi.host.core.rpc.RpcEndpoint;

/**
 * A test's JSON-RPC conversation with the host through the {@link RpcEndpoint} service, the same
 * entry the stdio server uses, so a test sees exactly what a client sees. Everything the host sends
 * is kept; tests await what they expect with a bound instead of sleeping.
 */
public final class RpcClient implements AutoCloseable {

    /** How long anything the host owes us may take before the test fails. */
    public static final Duration BOUND = Duration.ofSeconds(10);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final RpcConnection connection;

    public RpcClient(RpcEndpoint endpoint) {
        this.connection = endpoint.connect(line -> received.add(parse(line)));
    }

    /** Sends a request without params and returns its {@code result}; an error response fails the test. */
    public JsonNode call(String method) {
        return call(method, JSON.createObjectNode());
    }

    /** Sends a request and returns its {@code result}; an error response fails the test. */
    public JsonNode call(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        connection.receive(request.toString());
        JsonNode response = awaitFirst("the response to " + method,
                () -> first(m -> m.path("id").isNumber() && m.path("id").asInt() == id));
        if (response.has("error") || !response.has("result")) {
            throw new AssertionError(method + " failed: " + response);
        }
        return response.get("result");
    }

    /** Sends a request without waiting; its response is awaited with {@link #response(int)}. */
    public int send(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        connection.receive(request.toString());
        return id;
    }

    /** Waits for the response with this id and returns its {@code result}. */
    public JsonNode response(int id) {
        JsonNode response = awaitFirst("the response " + id,
                () -> first(m -> m.path("id").isNumber() && m.path("id").asInt() == id));
        if (!response.has("result")) {
            throw new AssertionError("request " + id + " failed: " + response);
        }
        return response.get("result");
    }

    /** Waits for the whole response message with this id (result or error). */
    public JsonNode awaitResponse(int id) {
        return awaitFirst("the response " + id,
                () -> first(m -> m.path("id").isNumber() && m.path("id").asInt() == id));
    }

    /** A fresh params object. */
    public static ObjectNode params() {
        return JSON.createObjectNode();
    }

    /** Waits for a notification {@code method} whose params match, and returns those params. */
    public JsonNode awaitNotification(String method, String what, Predicate<JsonNode> params) {
        return awaitFirst(method + " " + what, () -> notifications(method).stream().filter(params).findFirst());
    }

    /** The params of every notification {@code method} received so far, in arrival order. */
    public List<JsonNode> notifications(String method) {
        return received.stream()
                .filter(m -> !m.has("id") && method.equals(m.path("method").asText()))
                .map(m -> m.path("params"))
                .collect(Collectors.toList());
    }

    /** True when {@code array} is a JSON array holding the string {@code value}. */
    public static boolean contains(JsonNode array, String value) {
        if (!array.isArray()) {
            return false;
        }
        for (JsonNode element : array) {
            if (value.equals(element.asText())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        connection.close();
    }

    private JsonNode awaitFirst(String what, Callable<Optional<JsonNode>> probe) {
        try {
            return await(what).atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(probe, Optional::isPresent).get();
        } catch (ConditionTimeoutException e) {
            // what the host did send is the first thing one needs to see when it did not send this; not
            // chained, as Pax Exam reports the root cause of a failure and would drop this message
            throw new AssertionError("no " + what + " within " + BOUND + "; received: " + received);
        }
    }

    private Optional<JsonNode> first(Predicate<JsonNode> match) {
        return received.stream().filter(match).findFirst();
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (JsonProcessingException e) {
            // throwing here would only reach the host's delivery thread; keep the line for the test to see
            return JSON.createObjectNode().put("unparsable", line);
        }
    }
}
