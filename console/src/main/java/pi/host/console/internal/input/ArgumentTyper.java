package pi.host.console.internal.input;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import pi.host.console.internal.input.Input.Argument;

/**
 * Turns the typed {@code key=value} words of a tool line into the call's JSON arguments, using the
 * tool's input schema (from {@code tools.list}) only to read bare words the way a person means them:
 * {@code limit=5} is a number where the schema says integer, {@code pattern=123} stays a string
 * where it says string. It decides nothing else: the host validates the arguments as for any client.
 */
public final class ArgumentTyper {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> LITERAL_TYPES = Set.of("integer", "number", "boolean", "null", "array", "object");

    private ArgumentTyper() {
    }

    /** The arguments object of a tool line; {@code schema} may be null (a tool the console has no schema for). */
    public static ObjectNode arguments(Input.ToolCall call, JsonNode schema) {
        if (call.isJson()) {
            return call.json();
        }
        ObjectNode out = JSON.createObjectNode();
        for (Argument a : call.arguments()) {
            out.set(a.key(), value(a, declaredType(schema, a.key())));
        }
        return out;
    }

    /** The property's declared JSON type ("string", "integer", ...), or null when the schema does not say one. */
    static String declaredType(JsonNode schema, String key) {
        if (schema == null) {
            return null;
        }
        JsonNode type = schema.path("properties").path(key).path("type");
        if (type.isTextual()) {
            return type.asText();
        }
        if (type.isArray() && type.size() > 0) {
            for (JsonNode t : type) {
                if ("string".equals(t.asText())) {
                    return "string"; // a bare word fits the string alternative as typed
                }
            }
            return type.get(0).asText();
        }
        return null;
    }

    private static JsonNode value(Argument a, String type) {
        switch (a.kind()) {
            case QUOTED:
                return JSON.getNodeFactory().textNode(a.value());
            case JSON:
                // JSON text for a string property is the string itself (Write content={"a":1} writes that text)
                return "string".equals(type) ? JSON.getNodeFactory().textNode(a.value()) : parse(a.value());
            default:
                if ("string".equals(type)) {
                    return JSON.getNodeFactory().textNode(a.value());
                }
                JsonNode literal = literal(a.value());
                if (literal != null && (type == null ? literal.isValueNode() : LITERAL_TYPES.contains(type))) {
                    return literal;
                }
                return JSON.getNodeFactory().textNode(a.value());
        }
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("checked by the parser", e);
        }
    }

    /** A bare word as a JSON number, boolean or null; null when it is none of them. */
    private static JsonNode literal(String word) {
        if (word.isEmpty()) {
            return null;
        }
        char c = word.charAt(0);
        if (!(c == '-' || Character.isDigit(c) || word.equals("true") || word.equals("false") || word.equals("null"))) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(word);
            return node != null && node.isValueNode() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
