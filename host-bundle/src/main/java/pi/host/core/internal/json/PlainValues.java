package pi.host.core.internal.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Trees to plain Java values and back, for the shapes every tool call carries: objects, arrays,
 * strings, booleans, null and the usual numbers. Both directions give what the mapper's
 * {@code treeToValue(node, Map.class)} and {@code valueToTree(map)} give, without their round
 * trip through a token buffer and a serializer provider (on every call: the arguments on the way
 * in, the result's details on the way out). Anything else is left to the mapper.
 */
public final class PlainValues {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PlainValues() {
    }

    /**
     * The object as the mapper's {@code treeToValue(object, Map.class)} reads it: LinkedHashMap,
     * ArrayList, String, Boolean, Integer, Long, BigInteger, Double, null.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> toMap(ObjectNode object) {
        Map<String, Object> plain = readObject(object);
        if (plain != null) {
            return plain;
        }
        try {
            return Json.mapper().treeToValue(object, Map.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("arguments cannot be read as a map: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The map as the mapper's {@code valueToTree} writes it.
     *
     * @throws IllegalArgumentException when a value cannot be written as JSON
     */
    public static JsonNode toTree(Map<String, ?> map) {
        ObjectNode tree = writeObject(map);
        return tree != null ? tree : Json.mapper().valueToTree(map);
    }

    /** Null when some value is not one of the plain kinds (the caller asks the mapper). */
    private static Map<String, Object> readObject(JsonNode object) {
        Map<String, Object> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            Object value = read(f.getValue());
            if (value == UNKNOWN) {
                return null;
            }
            out.put(f.getKey(), value);
        }
        return out;
    }

    private static final Object UNKNOWN = new Object();

    private static Object read(JsonNode node) {
        switch (node.getNodeType()) {
            case STRING:
                return node.textValue();
            case BOOLEAN:
                return node.booleanValue();
            case NULL:
                return null;
            case OBJECT: {
                Map<String, Object> map = readObject(node);
                return map == null ? UNKNOWN : map;
            }
            case ARRAY: {
                List<Object> list = new ArrayList<>(node.size());
                for (JsonNode e : node) {
                    Object value = read(e);
                    if (value == UNKNOWN) {
                        return UNKNOWN;
                    }
                    list.add(value);
                }
                return list;
            }
            case NUMBER:
                if (node.isInt() || node.isLong() || node.isBigInteger() || node.isDouble()) {
                    return node.numberValue();
                }
                return UNKNOWN;
            default:
                return UNKNOWN;
        }
    }

    /** Null when some key or value is not one of the plain kinds (the caller asks the mapper). */
    private static ObjectNode writeObject(Map<?, ?> map) {
        ObjectNode out = NODES.objectNode();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getKey() instanceof String)) {
                return null;
            }
            JsonNode value = write(e.getValue());
            if (value == null) {
                return null;
            }
            out.set((String) e.getKey(), value);
        }
        return out;
    }

    private static JsonNode write(Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof String) {
            return NODES.textNode((String) value);
        }
        if (value instanceof Boolean) {
            return NODES.booleanNode((Boolean) value);
        }
        if (value instanceof Integer) {
            return NODES.numberNode((Integer) value);
        }
        if (value instanceof Long) {
            return NODES.numberNode((Long) value);
        }
        if (value instanceof Double && Double.isFinite((Double) value)) {
            return NODES.numberNode((Double) value);
        }
        if (value instanceof BigInteger) {
            return NODES.numberNode((BigInteger) value);
        }
        if (value instanceof Map) {
            return writeObject((Map<?, ?>) value);
        }
        if (value instanceof List) {
            ArrayNode out = NODES.arrayNode(((List<?>) value).size());
            for (Object e : (List<?>) value) {
                JsonNode node = write(e);
                if (node == null) {
                    return null;
                }
                out.add(node);
            }
            return out;
        }
        return null;
    }
}
