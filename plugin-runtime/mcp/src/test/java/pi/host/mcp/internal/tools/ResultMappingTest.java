package pi.host.mcp.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;

/** tools/call results as host ToolResults: text for the model, binary and structured parts bounded in details. */
class ResultMappingTest {

    @Test
    void everyKindOfContent() {
        McpSchema.CallToolResult r = new McpSchema.CallToolResult(List.of(
                new McpSchema.TextContent("hello"),
                new McpSchema.ImageContent(null, "aGVsbG8h", "image/png"),
                new McpSchema.EmbeddedResource(null, new McpSchema.TextResourceContents("file:///a", "text/plain", "abc")),
                new McpSchema.EmbeddedResource(null, new McpSchema.BlobResourceContents("file:///b", "application/zip",
                        "AAAA")),
                new McpSchema.ResourceLink("doc", null, "file:///c", null, "text/markdown", null, null, null)),
                null, Map.of("n", 1), null);
        ToolResult t = ResultMapping.map("srv", "tool", r);
        assertThat(t.ok()).isTrue();
        assertThat(t.text()).containsExactly("hello", "[image: image/png, 6 bytes]", "[resource file:///a]\nabc",
                "[resource file:///b: application/zip, 3 bytes, not shown]",
                "[resource link: doc file:///c (text/markdown)]");
        assertThat(t.details()).containsEntry("structuredContent", Map.of("n", 1)).containsEntry("server", "srv");
        assertThat((List<?>) t.details().get("media")).singleElement()
                .isEqualTo(Map.of("type", "image", "mimeType", "image/png", "data", "aGVsbG8h"));
    }

    @Test
    void isErrorIsToolFailedWithTheServersText() {
        ToolResult t = ResultMapping.map("s", "t", new McpSchema.CallToolResult(
                List.of(new McpSchema.TextContent("disk on fire")), true, null, null));
        assertThat(t.errorCode()).isEqualTo(ErrorCode.TOOL_FAILED);
        assertThat(t.text()).containsExactly("disk on fire");
        assertThat(ResultMapping.map("s", "t", new McpSchema.CallToolResult(List.of(), true, null, null)).text())
                .containsExactly("the MCP server reported an error without a message");
    }

    @Test
    void binaryAndStructuredPartsAreBounded() {
        String big = "A".repeat(ResultMapping.MAX_BINARY);
        ToolResult t = ResultMapping.map("s", "t", new McpSchema.CallToolResult(List.of(
                new McpSchema.ImageContent(null, big, "image/png"),
                new McpSchema.AudioContent(null, "AAAA", "audio/wav")), null,
                Map.of("blob", "x".repeat(ResultMapping.MAX_STRUCTURED)), null));
        assertThat(t.truncated()).isTrue();
        List<?> media = (List<?>) t.details().get("media");
        assertThat(((Map<?, ?>) media.get(0)).containsKey("data")).isTrue();
        assertThat(((Map<?, ?>) media.get(1)).containsKey("omitted")).isTrue();
        assertThat(((Map<?, ?>) media.get(1)).containsKey("data")).isFalse();
        assertThat(t.details()).doesNotContainKey("structuredContent").containsKey("structuredContentOmitted");
    }

    @Test
    void structuredContentAloneIsAlsoText() {
        ToolResult t = ResultMapping.map("s", "t", new McpSchema.CallToolResult(List.of(), null, Map.of("a", 1), null));
        assertThat(t.text()).containsExactly("{\"a\":1}");
    }
}
