package pi.host.mcp.internal.tools;

import java.util.concurrent.CompletionStage;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.mcp.internal.server.McpServer;
import pi.host.spi.AsyncBody;

/**
 * One MCP server tool as a host {@link pi.host.api.ToolProvider}. The host has already run the call through the one
 * pipeline (mode matrix, activation, the server's schema, policy and card) when {@link #execute} runs; this
 * only forwards the validated arguments to the server and maps its answer. The answer ends the host's
 * call from the SDK's reader thread ({@link AsyncBody}): no pipeline thread is parked to wait for it.
 */
final class McpTool implements AsyncBody {

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
    public CompletionStage<ToolResult> start(ToolCall call) {
        return server.call(definition.name(), call.arguments(), call);
    }
}
