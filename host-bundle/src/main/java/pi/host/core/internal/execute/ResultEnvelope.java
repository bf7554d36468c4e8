package pi.host.core.internal.execute;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import pi.host.api.ErrorCode;
import pi.host.core.internal.json.ErrorText;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.json.JsonText;
import pi.host.core.internal.json.StreamedJson;

/**
 * A ToolResult on the wire (PROTOCOL.md): {@code ok, isError, errorCode, content, details, root,
 * path, traceId, truncated, review, terminate}. A tool failure is always one of these, never a
 * JSON-RPC error. It writes itself ({@link #writeJson}): the answer is made without a tree.
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

    /**
     * The envelope as a tree: what {@link #writeJson} writes, read back, for a caller that needs a tree
     * (the wire never does: answers are written with {@link #writeJson}).
     */
    public ObjectNode toJson() {
        try (TokenBuffer tokens = new TokenBuffer(Json.mapper(), false)) {
            writeJson(tokens);
            return Json.mapper().readTree(tokens.asParser());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The envelope's JSON, field by field (no tree): the answer of every {@code tools.execute} and a batch's results. */
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
