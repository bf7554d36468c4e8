package pi.host.core.internal.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/** Typed access to a request's params object; every misuse is an invalid-params error naming the field. */
public final class Params {

    private final ObjectNode node;

    public Params(ObjectNode node) {
        this.node = node;
    }

    /** Params of a request that sent none. */
    public static Params empty() {
        return new Params(JsonNodeFactory.instance.objectNode());
    }

    public ObjectNode node() {
        return node;
    }

    public boolean has(String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }

    /** A required string field. */
    public String requireString(String field) throws RpcException {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw RpcException.invalidParams("missing required param '" + field + "'");
        }
        if (!v.isTextual()) {
            throw RpcException.invalidParams("param '" + field + "' must be a string");
        }
        return v.textValue();
    }

    /** An optional string field; a value of another type is an error, not absent. */
    public Optional<String> optString(String field) throws RpcException {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw RpcException.invalidParams("param '" + field + "' must be a string");
        }
        return Optional.of(v.textValue());
    }

    /** An optional boolean field. */
    public Optional<Boolean> optBoolean(String field) throws RpcException {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw RpcException.invalidParams("param '" + field + "' must be a boolean");
        }
        return Optional.of(v.booleanValue());
    }

    /** An optional integer field within bounds. */
    public Optional<Long> optLong(String field, long min, long max) throws RpcException {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
            throw RpcException.invalidParams("param '" + field + "' must be an integer from " + min + " to " + max);
        }
        return Optional.of(v.longValue());
    }

    /** An optional object field. */
    public Optional<ObjectNode> optObject(String field) throws RpcException {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isObject()) {
            throw RpcException.invalidParams("param '" + field + "' must be an object");
        }
        return Optional.of((ObjectNode) v);
    }

    /** A raw field, or null. */
    public JsonNode get(String field) {
        return node.get(field);
    }
}
