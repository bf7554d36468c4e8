package pi.host.mcpserver.internal.tools;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.mcpserver.internal.session.FrontSession;
import pi.host.mcpserver.internal.session.FrontSessions;
import pi.host.mcpserver.internal.session.InFlight;
import pi.host.mcpserver.internal.session.ProgressRelay;
import pi.host.mcpserver.internal.transport.InboundTap;
import reactor.core.publisher.Mono;

/**
 * The one {@code tools/call} handler every offered tool shares: the MCP session's pi-host session
 * runs the call as a {@code tools.execute} (arguments as the client sent them: the pipeline folds
 * aliases and validates the schema, so a bad argument is its {@code INVALID_ARGUMENT}, audited), and
 * the ToolResult comes back as a {@code CallToolResult}.
 *
 * <p>The SDK gets it as an async handler ({@link #onThreads}): the call runs on the front's own
 * threads, handed over directly from the SDK's reader thread, which goes back to reading at once
 * (a call waiting on a card needs the elicitation answer read meanwhile). That replaces the SDK's way
 * for a blocking handler, a Reactor {@code boundedElastic} worker scheduled per call; the direct hand-off
 * measured 32-35 µs warm on a loaded machine (docs/performance-log.md, "MCP front").
 */
public final class ToolCalls implements BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest,
        McpSchema.CallToolResult> {

    private final FrontSessions sessions;
    private final Executor progress;
    private final SerialAnswers answers;

    /** @param stdio the front serves stdio (its answers go through one SDK sink: {@link SerialAnswers}) */
    public ToolCalls(FrontSessions sessions, Executor progress, boolean stdio) {
        this.sessions = sessions;
        this.progress = progress;
        this.answers = new SerialAnswers(stdio);
    }

    /** This handler as the SDK's async server calls it: each call runs on one of {@code threads}. */
    public BiFunction<McpAsyncServerExchange, McpSchema.CallToolRequest, Mono<McpSchema.CallToolResult>> onThreads(
            Executor threads) {
        return (exchange, request) -> Mono.create(sink -> threads.execute(() -> {
            McpSchema.CallToolResult result;
            try {
                result = apply(new McpSyncServerExchange(exchange), request);
            } catch (RuntimeException | Error e) {
                answers.error(sink, e);
                return;
            }
            answers.success(sink, result);
        }));
    }

    @Override
    public McpSchema.CallToolResult apply(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
        Map<String, Object> meta = request.meta();
        Object token = meta == null ? null : meta.get("progressToken");
        JsonNode arguments = HostClient.json().valueToTree(request.arguments() == null ? Map.of() : request.arguments());
        try {
            FrontSession session = sessions.of(exchange.sessionId());
            JsonNode result = session.execute(request.name(), arguments, InboundTap.requestKey(meta),
                    (toolCallId, name) -> new InFlight(toolCallId, name, exchange, token,
                            token == null ? null : new ProgressRelay(exchange, token, progress)));
            return result == null ? ToolResults.cancelledBeforeStart() : ToolResults.toMcp(result, session.sessionId());
        } catch (HostError e) {
            return ToolResults.hostError(e);
        }
    }
}
