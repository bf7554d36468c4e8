package pi.host.core.internal.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON text written straight to the mapper's generator, one pass: the same text
 * {@code Json.mapper().writeValueAsString} gives, without a tree built for it first and without the
 * serializer provider and lookup the mapper sets up for every value. On every call's path (its answer,
 * its {@code tool.completed}, its audit row's arguments) while the first calls still run in the
 * interpreter, where each of those costs per node and per call (docs/performance-log.md, j17ans11).
 */
public final class JsonText {

    private JsonText() {
    }

    /**
     * {@code value}'s text: the mapper's generator and settings, as its own {@code writeValueAsString}
     * has. Into a plain StringWriter rather than the mapper's segmented one: in the first calls the JDK's
     * own code is already compiled (the start ran it) while Jackson's is still interpreted, and the
     * StringWriter moves the text in JDK code, the segmented writer (and its buffer pool) in Jackson's:
     * a Read's answer 52–62 against 58–68 µs that way (docs/performance-log.md, branch j17ans11).
     */
    public static String write(StreamedJson value) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = Json.mapper().createGenerator(text)) {
            value.writeJson(out);
        }
        return text.toString();
    }

    /** {@code node}'s text, as {@code Json.mapper().writeValueAsString(node)} gives it. */
    public static String of(JsonNode node) throws IOException {
        return write(out -> tree(out, node));
    }

    /** {@code node} as the mapper writes it: the plain kinds here, anything else through the mapper. */
    public static void tree(JsonGenerator out, JsonNode node) throws IOException {
        if (node == null || node instanceof NullNode) {
            out.writeNull(); // as a tree holds a null it was given (ObjectNode.set)
        } else if (node instanceof ObjectNode) {
            out.writeStartObject(node, node.size());
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                out.writeFieldName(field.getKey());
                tree(out, field.getValue());
            }
            out.writeEndObject();
        } else if (node instanceof ArrayNode) {
            out.writeStartArray(node, node.size());
            for (int i = 0; i < node.size(); i++) {
                tree(out, node.get(i));
            }
            out.writeEndArray();
        } else if (node instanceof TextNode) {
            out.writeString(node.textValue());
        } else if (node instanceof BooleanNode) {
            out.writeBoolean(node.booleanValue());
        } else if (node instanceof IntNode) {
            out.writeNumber(node.intValue());
        } else if (node instanceof LongNode) {
            out.writeNumber(node.longValue());
        } else {
            out.writeTree(node); // other numbers, binary, POJO: the mapper's own rules and features
        }
    }
}
