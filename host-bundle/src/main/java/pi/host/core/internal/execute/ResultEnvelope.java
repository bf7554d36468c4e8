package pi.host.core.internal.execute;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import pi.host.api.ErrorCode;
import pi.host.core.internal.json.ErrorText;
import pi.host.core.internal.json.JsonText;
import pi.host.core.internal.json.StreamedJson;

/**
 * A ToolResult on the wire (PROTOCOL.md): {@code ok, isError, errorCode, content, details, root,
 * path, traceId, truncated, review, terminate}. A tool failure is always one of these, never a
 * JSON-RPC error. {@code tools.execute} answers with {@link #writeJson} (no tree); a batch's results are
 * {@link #toJson} trees; both give the same text.
 */
public record ResultEnvelope(ErrorCode errorCode, List<String> text, ObjectNode details, String root, String path,
        String traceId, boolean truncated, ArrayNode review, boolean terminate) implements StreamedJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public boolean ok() {
        return errorCode == null;
    }

    /** A failure with one message, bounded: the host's refusals echo input ({@link ErrorText}). */
    public static ResultEnvelope error(ErrorCode code, String message, String traceId) {
        return new ResultEnvelope(code, List.of(ErrorText.bound(message)), NODES.objectNode(), null, null, traceId, false,
                NODES.arrayNode(), false);
    }

    /** The same result with details added (e.g. a structured suggestion). */
    public ResultEnvelope withDetail(String key, JsonNode value) {
        ObjectNode d = details.deepCopy();
        d.set(key, value);
        return new ResultEnvelope(errorCode, text, d, root, path, traceId, truncated, review, terminate);
    }

    public ObjectNode toJson() {
        ObjectNode o = NODES.objectNode();
        o.put("ok", ok());
        o.put("isError", !ok());
        if (errorCode == null) {
            o.putNull("errorCode");
        } else {
            o.put("errorCode", errorCode.name());
        }
        ArrayNode content = o.putArray("content");
        for (String t : text) {
            content.addObject().put("type", "text").put("text", t);
        }
        o.set("details", details);
        if (root != null) {
            o.put("root", root);
        }
        if (path != null) {
            o.put("path", path);
        }
        o.put("traceId", traceId);
        o.put("truncated", truncated);
        o.set("review", review);
        o.put("terminate", terminate);
        return o;
    }

    /** {@link #toJson}'s text, written field by field: the answer of every {@code tools.execute}. */
    @Override
    public void writeJson(JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeBooleanField("ok", ok());
        out.writeBooleanField("isError", !ok());
        out.writeStringField("errorCode", errorCode == null ? null : errorCode.name());
        out.writeArrayFieldStart("content");
        for (String t : text) {
            out.writeStartObject();
            out.writeStringField("type", "text");
            out.writeStringField("text", t);
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeFieldName("details");
        JsonText.tree(out, details);
        if (root != null) {
            out.writeStringField("root", root);
        }
        if (path != null) {
            out.writeStringField("path", path);
        }
        out.writeStringField("traceId", traceId);
        out.writeBooleanField("truncated", truncated);
        out.writeFieldName("review");
        JsonText.tree(out, review);
        out.writeBooleanField("terminate", terminate);
        out.writeEndObject();
    }
}
