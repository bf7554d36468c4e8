package pi.host.mcpserver.internal.transport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Looks at each message an MCP client sends before the SDK handles it, for the two things the SDK
 * 2.1.0 server does not give its handlers: {@code notifications/cancelled} (it has no handler for
 * it) and the JSON-RPC id of a {@code tools/call} (handlers see only the params). The id is written
 * into the call's {@code _meta} under {@link #REQUEST_ID} (whatever the client put there is
 * replaced), so a later cancellation finds the call it names. Everything else passes unchanged,
 * garbage included: answering it stays the SDK's job.
 */
public final class InboundTap {

    /** The {@code _meta} key that carries a {@code tools/call}'s own JSON-RPC id to its handler. */
    public static final String REQUEST_ID = "pi-host/requestId";

    /** Told of a client's cancellation. */
    @FunctionalInterface
    public interface Cancellations {
        /**
         * @param mcpSessionId the MCP session the cancellation came in (HTTP), or null on stdio (one session)
         */
        void cancelled(String mcpSessionId, String requestKey);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Cancellations cancellations;

    public InboundTap(Cancellations cancellations) {
        this.cancellations = cancellations;
    }

    /** The message to hand to the SDK: the same text, or a {@code tools/call} with its id in {@code _meta}. */
    public String inbound(String mcpSessionId, String message) {
        return inbound(mcpSessionId, message, parse(message));
    }

    /** The message parsed once, or null when it is not JSON. */
    public static JsonNode parse(String message) {
        try {
            return JSON.readTree(message);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** {@link #inbound(String, String)} of a message already parsed ({@code tree} null: not JSON). */
    public String inbound(String mcpSessionId, String message, JsonNode tree) {
        if (tree == null || !tree.isObject()) {
            return message;
        }
        String method = tree.path("method").asText("");
        JsonNode id = tree.get("id");
        if ("notifications/cancelled".equals(method) && id == null) {
            JsonNode target = tree.path("params").get("requestId");
            if (target != null && (target.isTextual() || target.isIntegralNumber())) {
                cancellations.cancelled(mcpSessionId, key(target));
            }
            return message;
        }
        if ("tools/call".equals(method) && id != null && (id.isTextual() || id.isIntegralNumber())
                && tree.path("params").isObject()) {
            ObjectNode params = (ObjectNode) tree.get("params");
            JsonNode meta = params.get("_meta");
            ObjectNode m = meta instanceof ObjectNode ? (ObjectNode) meta : params.putObject("_meta");
            m.put(REQUEST_ID, key(id));
            try {
                return JSON.writeValueAsString(tree);
            } catch (JsonProcessingException e) {
                return message;
            }
        }
        return message;
    }

    /** The key of a JSON-RPC id: {@code s:abc} for a string, {@code n:7} for a number, so the two never meet. */
    static String key(JsonNode id) {
        return (id.isTextual() ? "s:" : "n:") + id.asText();
    }

    /** The request key the tap wrote into a {@code tools/call}'s {@code _meta}, or null. */
    public static String requestKey(Map<String, Object> meta) {
        Object key = meta == null ? null : meta.get(REQUEST_ID);
        return key instanceof String ? (String) key : null;
    }
}
