package pi.host.mcp.internal.tools;

import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.mcp.internal.server.McpServer;

/**
 * One MCP server tool as a host {@link ToolProvider}. The host has already run the call through the one
 * pipeline (mode matrix, activation, the server's schema, policy and card) when {@link #execute} runs; this
 * only forwards the validated arguments to the server and maps its answer.
 */
final class McpTool implements ToolProvider {

    private final McpServer server;
    private final ToolDefinition definition;

    McpTool(McpServer server, ToolDefinition definition) {
        this.server = server;
        this.definition = definition;
    }

    @Override
    public String description() {
        return definition.description();
    }

    @Override
    public String inputSchema() {
        return definition.inputSchema();
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return server.call(definition.name(), call.arguments(), call);
    }
}
