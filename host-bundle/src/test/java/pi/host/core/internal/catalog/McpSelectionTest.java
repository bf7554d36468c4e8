package pi.host.core.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import pi.host.api.Risk;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.registry.Preparer;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolFacts;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.spi.ToolKind;

class McpSelectionTest {

    private static RegisteredTool tool(String name, ToolOrigin origin, String owner) {
        return new RegisteredTool(name, name, name, origin, owner, Risk.MEDIUM, true, List.of(), List.of(), true, "",
                new ToolFacts(origin == ToolOrigin.MCP ? ToolKind.MCP : ToolKind.PLUGIN, List.of(), false, false,
                        Preparer.none(name)), false, 1000, null, 1, name.hashCode(), null, null);
    }

    private static final List<RegisteredTool> TOOLS = List.of(
            tool("mcp_fs_read", ToolOrigin.MCP, "fs"), tool("mcp_fs_write", ToolOrigin.MCP, "fs"),
            tool("mcp_git_log", ToolOrigin.MCP, "git"), tool("plugin_a_x", ToolOrigin.PLUGIN, "a"));
    private static final Set<String> ALLOWED = Set.of("mcp_fs_read", "mcp_fs_write", "mcp_git_log", "plugin_a_x");

    private static Set<String> resolve(String selection, Set<String> allowed) throws Exception {
        return McpSelection.resolve(Json.mapper().readTree(selection), TOOLS, allowed);
    }

    @Test
    void noSelectionActivatesNothing() throws Exception {
        assertThat(McpSelection.resolve(null, TOOLS, ALLOWED)).isEmpty();
        assertThat(resolve("{}", ALLOWED)).isEmpty();
    }

    @Test
    void aServerIdActivatesAllItsAllowedTools() throws Exception {
        assertThat(resolve("{\"serverIds\":[\"fs\"]}", ALLOWED)).containsExactlyInAnyOrder("mcp_fs_read", "mcp_fs_write");
        assertThat(resolve("{\"serverIds\":[\"fs\"]}", Set.of("mcp_fs_read"))).containsExactly("mcp_fs_read");
    }

    @Test
    void toolNamesNarrowToExactNamesOfASelectedServer() throws Exception {
        assertThat(resolve("{\"serverIds\":[\"fs\",\"git\"],\"mcpToolNames\":[\"mcp_git_log\"]}", ALLOWED))
                .containsExactly("mcp_git_log");
    }

    @Test
    void everyInvalidSelectionFailsWithoutFallback() {
        String[] invalid = {
            "{\"serverIds\":[\"nope\"]}",                                            // unknown server
            "{\"serverIds\":[\"fs\"],\"mcpToolNames\":[\"mcp_git_log\"]}",            // foreign tool
            "{\"serverIds\":[\"fs\"],\"mcpToolNames\":[\"mcp_fs_READ\"]}",            // not an exact name
            "{\"serverIds\":[\"fs\"],\"mcpToolNames\":[\"plugin_a_x\"]}",             // not an MCP tool
            "{\"serverIds\":[]}", "{\"serverIds\":\"fs\"}", "{\"serverIds\":[1]}"      // malformed
        };
        for (String s : invalid) {
            assertThatThrownBy(() -> resolve(s, ALLOWED)).as(s).isInstanceOf(McpSelection.Invalid.class);
        }
    }

    @Test
    void modeDeniedToolsFail() {
        assertThatThrownBy(() -> resolve("{\"serverIds\":[\"fs\"],\"mcpToolNames\":[\"mcp_fs_write\"]}",
                Set.of("mcp_fs_read"))).isInstanceOf(McpSelection.Invalid.class).hasMessageContaining("mode");
        assertThatThrownBy(() -> resolve("{\"serverIds\":[\"fs\"]}", Set.of()))
                .isInstanceOf(McpSelection.Invalid.class).hasMessageContaining("no tool");
    }
}
