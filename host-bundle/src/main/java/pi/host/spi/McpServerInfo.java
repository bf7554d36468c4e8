package pi.host.spi;

import java.util.List;

/**
 * One configured MCP server as the bridge sees it. The host adds the names the registry exposes for it.
 *
 * @param id the server id (the key in {@code mcpServers}), or {@code mcp.json} for a file that cannot be read
 * @param transport {@code stdio} or {@code http} (null when the entry does not say)
 * @param state {@code starting}, {@code ready}, {@code failed}, {@code stopped} or {@code disabled}
 * @param error why it failed or what is wrong with it (null when nothing is)
 * @param stderrTail the last lines the server wrote to stderr (bounded; empty for http)
 * @param pid the server process while one runs (stdio), else -1
 * @param offered the server's own names of the tools the bridge registered for it
 */
public record McpServerInfo(String id, String transport, String state, String error, String stderrTail, long pid,
        List<String> offered) {

    public McpServerInfo {
        offered = List.copyOf(offered);
    }
}
