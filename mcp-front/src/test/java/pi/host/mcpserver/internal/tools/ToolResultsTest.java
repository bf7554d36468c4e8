package pi.host.mcpserver.internal.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolResultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

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
        assertThat(tree(r.structuredContent())).isEqualTo(tree(Map.of("tag", "ABCD")));
        assertThat(r.meta()).containsEntry("pi-host/traceId", "tr_1").containsEntry("pi-host/sessionId", "ses_1")
                .containsEntry("pi-host/root", "workspace").containsEntry("pi-host/path", "a.txt")
                .doesNotContainKeys("pi-host/errorCode", "pi-host/truncated", "pi-host/terminate");
        assertThat(tree(r.meta().get("pi-host/review"))).isEqualTo(tree(List.of(Map.of("snapshotId", "s1"))));
    }

    /**
     * The details and review trees go to the SDK as they are (no conversion to maps on the call's path): its
     * mapper writes them as the JSON the maps made, nested values, nulls, numbers and order included.
     */
    @Test
    void theSdkWritesTheDetailsAndReviewTreesAsTheMapsTheyReplace() throws Exception {
        String details = "{\"lines\":3,\"firstLine\":1,\"tag\":\"5891\",\"ratio\":0.25,\"big\":12345678901234,"
                + "\"none\":null,\"flags\":[true,false],\"nested\":{\"a\":[1,{\"b\":\"c\\n\\t\"}]}}";
        String review = "[{\"snapshotId\":\"s1\",\"paths\":[\"a.txt\"],\"size\":null}]";
        McpSchema.CallToolResult r = ToolResults.toMcp(JSON.readTree("{\"ok\":true,\"isError\":false,"
                + "\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"details\":" + details + ",\"traceId\":\"tr_1\","
                + "\"review\":" + review + "}"), "ses_1");
        McpSchema.CallToolResult asMaps = new McpSchema.CallToolResult(r.content(), r.isError(),
                JSON.readValue(details, Map.class), Map.of("pi-host/review", JSON.readValue(review, List.class)));
        var sdk = io.modelcontextprotocol.json.McpJsonDefaults.getMapper();

        String written = sdk.writeValueAsString(r);
        String fromMaps = sdk.writeValueAsString(asMaps);

        assertThat(JSON.readTree(written).get("structuredContent").toString()).isEqualTo(details);
        assertThat(JSON.readTree(written).get("structuredContent")).isEqualTo(JSON.readTree(fromMaps).get("structuredContent"));
        assertThat(JSON.readTree(written).path("_meta").get("pi-host/review").toString()).isEqualTo(review);
        assertThat(JSON.readTree(written).path("_meta").get("pi-host/review"))
                .isEqualTo(JSON.readTree(fromMaps).path("_meta").get("pi-host/review"));
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
