package pi.host.core.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The exposed names of MCP tools: safe characters, at most 64, a stable hash suffix when cut. */
class ToolNamingTest {

    @Test
    void unsafeCharactersBecomeUnderscores() {
        assertThat(ToolNaming.exposedName(ToolOrigin.MCP, "my-server.v2", "read/file")).isEqualTo("mcp_my_server_v2_read_file");
        assertThat(ToolNaming.mcpName("日本", "ツール😀")).as("one _ per code point").isEqualTo("mcp_" + "__" + "_" + "____");
        assertThat(ToolNaming.mcpName("everything", "echo")).isEqualTo("mcp_everything_echo");
        assertThat(ToolNaming.validExposedName(ToolNaming.mcpName("a b", "c\u0000d"))).isTrue();
    }

    /** Pins cut names colliding: two long names that share their first 64 characters must stay apart. */
    @Test
    void longNamesAreCutWithAStableHash() {
        String server = "a-very-long-server-id-that-goes-on";
        String one = ToolNaming.mcpName(server, "tool_with_a_long_name_number_one");
        String two = ToolNaming.mcpName(server, "tool_with_a_long_name_number_two");
        assertThat(one).hasSize(ToolNaming.MAX_EXPOSED).matches("[A-Za-z0-9_]+").isNotEqualTo(two);
        assertThat(one.substring(0, 55)).isEqualTo(two.substring(0, 55));
        assertThat(one).isEqualTo(ToolNaming.mcpName(server, "tool_with_a_long_name_number_one")).as("stable");
        assertThat(ToolNaming.validExposedName(one)).isTrue();
        String exactly64 = "mcp_s_" + "x".repeat(58);
        assertThat(ToolNaming.mcpName("s", "x".repeat(58))).isEqualTo(exactly64);
    }

    @Test
    void mcpToolNamesAreTheServersToChooseWithinTheBound() {
        assertThat(ToolNaming.checkMcpToolName("get-file.v2/日本")).isNull();
        assertThat(ToolNaming.checkMcpToolName("")).contains("no name");
        assertThat(ToolNaming.checkMcpToolName("x".repeat(129))).contains("longer than 128");
        assertThat(ToolNaming.checkLocalName("get-file.v2")).as("plugins keep the strict rule").isNotNull();
    }
}
