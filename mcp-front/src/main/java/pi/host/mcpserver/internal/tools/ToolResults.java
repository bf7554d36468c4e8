package pi.host.mcpserver.internal.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import pi.host.core.rpc.HostError;

/**
 * A host ToolResult as an MCP {@code CallToolResult}: the text content as is (a failure's first text
 * led by its error code, {@code TOOL_DENIED: user denied permission}), {@code isError}, the tool's
 * {@code details} as {@code structuredContent}, and the rest of the envelope (trace id, error code,
 * root, path, truncation, review records, terminate) and the session id in {@code _meta} under
 * {@code pi-host/...}.
 */
public final class ToolResults {

    private ToolResults() {
    }

    /** @param sessionId the pi-host session the call ran in (for {@code audit.query}) */
    public static McpSchema.CallToolResult toMcp(JsonNode result, String sessionId) {
        boolean error = result.path("isError").asBoolean(!result.path("ok").asBoolean(false));
        String code = result.path("errorCode").isTextual() ? result.get("errorCode").asText() : null;
        McpSchema.CallToolResult.Builder b = McpSchema.CallToolResult.builder().isError(error);
        boolean first = true;
        for (JsonNode item : result.path("content")) {
            String text = item.path("text").asText("");
            b.addTextContent(first && error && code != null ? code + ": " + text : text);
            first = false;
        }
        if (first) {
            b.addTextContent(error && code != null ? code : "");
        }
        // the trees as they are, not converted to maps: the SDK's mapper writes a JsonNode as the same JSON, and
        // the conversion (through a token buffer into untyped maps) was one more pass over every result on the
        // call's path (docs/performance-log.md, front11). The tree is this call's own: HostClient parsed it from
        // the host's answer text.
        JsonNode details = result.get("details");
        if (details != null && details.isObject() && !details.isEmpty()) {
            b.structuredContent(details);
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("pi-host/traceId", result.path("traceId").asText(null));
        meta.put("pi-host/sessionId", sessionId);
        if (code != null) {
            meta.put("pi-host/errorCode", code);
        }
        copy(result, "root", meta);
        copy(result, "path", meta);
        if (result.path("truncated").asBoolean(false)) {
            meta.put("pi-host/truncated", true);
        }
        JsonNode review = result.get("review");
        if (review != null && review.isArray() && !review.isEmpty()) {
            meta.put("pi-host/review", review);
        }
        if (result.path("terminate").asBoolean(false)) {
            meta.put("pi-host/terminate", true);
        }
        return b.meta(meta).build();
    }

    /** A JSON-RPC error of the host (the call could not be made at all) as a failed result. */
    public static McpSchema.CallToolResult hostError(HostError e) {
        String code = e.errorCode() != null ? e.errorCode() : "HOST_ERROR";
        return McpSchema.CallToolResult.builder().isError(true).addTextContent(code + ": " + e.getMessage())
                .meta(Map.of("pi-host/errorCode", code)).build();
    }

    /** A call the client cancelled before it reached the host. */
    public static McpSchema.CallToolResult cancelledBeforeStart() {
        return McpSchema.CallToolResult.builder().isError(true)
                .addTextContent("TOOL_ABORTED: cancelled by the client before it started; nothing ran")
                .meta(Map.of("pi-host/errorCode", "TOOL_ABORTED")).build();
    }

    private static void copy(JsonNode result, String field, Map<String, Object> meta) {
        JsonNode v = result.get(field);
        if (v != null && v.isTextual()) {
            meta.put("pi-host/" + field, v.asText());
        }
    }
}
