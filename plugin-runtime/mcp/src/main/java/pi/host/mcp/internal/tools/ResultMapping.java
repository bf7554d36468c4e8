package pi.host.mcp.internal.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;

/**
 * An MCP {@code tools/call} result as a host {@link ToolResult}: text blocks for the model (text content,
 * text resources, and a line naming each image, audio clip, blob or link), the binary parts and the
 * structured content in {@code details}, each bounded. {@code isError} becomes {@code TOOL_FAILED} with the
 * server's own text. The host's output limits then bound the text as for any tool.
 */
public final class ResultMapping {

    /** Most base64 characters of images and audio kept in details, all parts together. */
    static final int MAX_BINARY = 1024 * 1024;
    /** Most characters of structured content kept in details (as JSON). */
    static final int MAX_STRUCTURED = 256 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultMapping() {
    }

    public static ToolResult map(String serverId, String tool, McpSchema.CallToolResult result) {
        ToolResult.Builder b = ToolResult.builder();
        List<Map<String, Object>> media = new ArrayList<>();
        boolean[] truncated = {false};
        int binary = 0;
        List<McpSchema.Content> content = result.content() == null ? List.of() : result.content();
        for (McpSchema.Content c : content) {
            if (c instanceof McpSchema.TextContent t) {
                b.text(t.text() == null ? "" : t.text());
            } else if (c instanceof McpSchema.ImageContent i) {
                binary = binary(b, media, "image", i.mimeType(), i.data(), binary, truncated);
            } else if (c instanceof McpSchema.AudioContent a) {
                binary = binary(b, media, "audio", a.mimeType(), a.data(), binary, truncated);
            } else if (c instanceof McpSchema.EmbeddedResource r) {
                resource(b, r.resource());
            } else if (c instanceof McpSchema.ResourceLink l) {
                b.text("[resource link: " + l.name() + " " + l.uri()
                        + (l.mimeType() == null ? "" : " (" + l.mimeType() + ")") + "]");
            } else {
                b.text("[" + c.type() + " content]");
            }
        }
        if (!media.isEmpty()) {
            b.detail("media", media);
        }
        Object structured = result.structuredContent();
        if (structured != null) {
            String json = json(structured);
            if (json.length() <= MAX_STRUCTURED) {
                b.detail("structuredContent", structured);
            } else {
                truncated[0] = true;
                b.detail("structuredContentOmitted", "structured content of " + json.length()
                        + " characters is larger than " + MAX_STRUCTURED);
            }
            if (content.isEmpty()) {
                b.text(json); // the model reads text: a result with structured content only would be empty
            }
        }
        b.detail("server", serverId).detail("tool", tool);
        if (Boolean.TRUE.equals(result.isError())) {
            b.error(ErrorCode.TOOL_FAILED);
            if (content.isEmpty() && structured == null) {
                b.text("the MCP server reported an error without a message");
            }
        }
        return b.truncated(truncated[0]).build();
    }

    private static int binary(ToolResult.Builder b, List<Map<String, Object>> media, String kind, String mimeType,
            String data, int used, boolean[] truncated) {
        int size = data == null ? 0 : data.length();
        b.text("[" + kind + ": " + mimeType + ", " + base64Bytes(size) + " bytes]");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", kind);
        m.put("mimeType", mimeType);
        if (used + size <= MAX_BINARY) {
            m.put("data", data);
            used += size;
        } else {
            m.put("omitted", "larger than the " + MAX_BINARY + " characters of binary content a result keeps");
            truncated[0] = true;
        }
        media.add(m);
        return used;
    }

    private static void resource(ToolResult.Builder b, McpSchema.ResourceContents r) {
        if (r instanceof McpSchema.TextResourceContents t) {
            b.text("[resource " + t.uri() + "]\n" + (t.text() == null ? "" : t.text()));
        } else if (r instanceof McpSchema.BlobResourceContents blob) {
            b.text("[resource " + blob.uri() + ": " + blob.mimeType() + ", "
                    + base64Bytes(blob.blob() == null ? 0 : blob.blob().length()) + " bytes, not shown]");
        } else {
            b.text("[resource " + (r == null ? "?" : r.uri()) + "]");
        }
    }

    private static long base64Bytes(int chars) {
        return chars / 4L * 3;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }
}
