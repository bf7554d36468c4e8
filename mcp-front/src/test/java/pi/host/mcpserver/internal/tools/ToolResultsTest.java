package pi.host.mcpserver.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolResultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String text(McpSchema.CallToolResult r, int i) {
        return ((McpSchema.TextContent) r.content().get(i)).text();
    }

    @Test
    void aSuccessKeepsItsTextDetailsAndReview() throws Exception {
        McpSchema.CallToolResult r = ToolResults.toMcp(JSON.readTree("{\"ok\":true,\"isError\":false,\"errorCode\":null,"
                + "\"content\":[{\"type\":\"text\",\"text\":\"[a.txt#ABCD]\"}],\"details\":{\"tag\":\"ABCD\"},"
                + "\"root\":\"workspace\",\"path\":\"a.txt\",\"traceId\":\"tr_1\",\"truncated\":false,"
                + "\"review\":[{\"snapshotId\":\"s1\"}],\"terminate\":false}"), "ses_1");
        assertThat(r.isError()).isFalse();
        assertThat(text(r, 0)).isEqualTo("[a.txt#ABCD]");
        assertThat(r.structuredContent()).isEqualTo(Map.of("tag", "ABCD"));
        assertThat(r.meta()).containsEntry("pi-host/traceId", "tr_1").containsEntry("pi-host/sessionId", "ses_1")
                .containsEntry("pi-host/root", "workspace").containsEntry("pi-host/path", "a.txt")
                .containsEntry("pi-host/review", List.of(Map.of("snapshotId", "s1")))
                .doesNotContainKeys("pi-host/errorCode", "pi-host/truncated", "pi-host/terminate");
    }

    @Test
    void aFailureLeadsWithItsErrorCode() throws Exception {
        McpSchema.CallToolResult r = ToolResults.toMcp(JSON.readTree("{\"ok\":false,\"isError\":true,"
                + "\"errorCode\":\"TOOL_DENIED\",\"content\":[{\"type\":\"text\",\"text\":\"user denied permission\"}],"
                + "\"details\":{},\"traceId\":\"tr_2\",\"truncated\":false,\"review\":[],\"terminate\":true}"), "ses_1");
        assertThat(r.isError()).isTrue();
        assertThat(text(r, 0)).isEqualTo("TOOL_DENIED: user denied permission");
        assertThat(r.structuredContent()).isNull();
        assertThat(r.meta()).containsEntry("pi-host/errorCode", "TOOL_DENIED").containsEntry("pi-host/terminate", true)
                .doesNotContainKey("pi-host/review");
    }
}
