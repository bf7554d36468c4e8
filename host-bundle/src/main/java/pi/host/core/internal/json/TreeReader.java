package pi.host.core.internal.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * A JSON text read to the tree {@code Json.mapper().readTree} makes of it, built here from the parser's
 * tokens: the request line of every call is read this way. The mapper's own read sets up a
 * deserialization context, looks up its root deserializer and checks for trailing tokens through
 * databind on every line, each of them a method a call runs once, so interpreted in a fresh Java 17
 * host's first ~150 calls, while the tokenizer and the few builders here run per token and are
 * compiled within the first calls (docs/performance-log.md, branch j17req12).
 *
 * <p>The same parser (the mapper's, with its duplicate detection and input bounds) and the same nodes
 * (the mapper's node factory; integers as {@code int}, {@code long} or {@code BigInteger} by their
 * size, as the mapper's defaults read them). Whatever this does not build the same way by construction
 * is left to the mapper: a text with a floating-point number, with anything after its value, or one the
 * parser refuses is read again by {@code readTree}, which answers it (or throws its error) exactly as
 * before, so every error text stays the mapper's.
 */
public final class TreeReader {

    /** The mapper's own, so the nodes are the ones its {@code readTree} makes. */
    private static final JsonNodeFactory NODES = Json.mapper().getNodeFactory();

    private TreeReader() {
    }

    /** The tree of {@code length} bytes at {@code offset}; null for a text without a value (blank). */
    public static JsonNode read(byte[] text, int offset, int length) throws IOException {
        JsonNode tree = built(text, offset, length);
        if (tree == null) {
            tree = Json.mapper().readTree(text, offset, length);
        }
        return tree == null || tree.isMissingNode() ? null : tree;
    }

    /**
     * The tree as built here from the tokens ({@code MissingNode} for a blank text), or null when it is
     * the mapper's to read: a floating-point number, trailing tokens, anything the parser refuses.
     */
    static JsonNode built(byte[] text, int offset, int length) {
        try (JsonParser p = Json.mapper().createParser(text, offset, length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return MissingNode.getInstance();
            }
            JsonNode tree = value(p, first);
            return tree != null && p.nextToken() == null ? tree : null;
        } catch (IOException | RuntimeException e) {
            return null; // the mapper reads it again and throws its own error for it
        }
    }

    /** The value starting at {@code token}; null for one left to the mapper (a floating-point number). */
    private static JsonNode value(JsonParser p, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT:
                return object(p);
            case START_ARRAY:
                return array(p);
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                return integer(p);
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                return null; // VALUE_NUMBER_FLOAT (the mapper's float rules), anything else JSON text never holds
        }
    }

    private static JsonNode integer(JsonParser p) throws IOException {
        switch (p.getNumberType()) {
            case INT:
                return NODES.numberNode(p.getIntValue());
            case LONG:
                return NODES.numberNode(p.getLongValue());
            default:
                return NODES.numberNode(p.getBigIntegerValue());
        }
    }

    /** The parser's nesting bound (Json.MAX_NESTING) bounds this recursion. */
    private static ObjectNode object(JsonParser p) throws IOException {
        ObjectNode node = NODES.objectNode();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            JsonNode v = value(p, p.nextToken());
            if (v == null) {
                return null;
            }
            node.set(name, v); // a repeated name never gets here: the parser refuses it
        }
        return p.currentToken() == JsonToken.END_OBJECT ? node : null;
    }

    private static ArrayNode array(JsonParser p) throws IOException {
        ArrayNode node = NODES.arrayNode();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            JsonNode v = t == null ? null : value(p, t);
            if (v == null) {
                return null;
            }
            node.add(v);
        }
        return node;
    }
}
