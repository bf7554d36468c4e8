package pi.host.mcpserver.internal.session;

import io.modelcontextprotocol.server.McpSyncServerExchange;

/**
 * One {@code tools/call} while the host runs it: what a card, an output chunk or a cancellation of
 * that call needs to find its way back to the MCP client that asked.
 *
 * @param exchange the MCP request's exchange (elicitation and progress go through it)
 * @param progressToken the client's progress token, or null when it asked for no progress
 */
public record InFlight(String toolCallId, String toolName, McpSyncServerExchange exchange, Object progressToken,
        ProgressRelay progress) {
}
