package pi.host.mcpserver.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import pi.host.core.rpc.HostClient;
import pi.host.mcpserver.internal.tools.ToolResults;
import pi.host.mcpserver.internal.transport.InboundTap;

/**
 * Trains the front's own per-call code before the first call needs it: the tap's parse and rewrite of a
 * {@code tools/call} line, the SDK's decoding of it into a {@code CallToolRequest}, the arguments as the
 * host gets them, the mapping of a ToolResult and the SDK's encoding of the response. Run at activation,
 * beside the framework's start, on a background thread, with messages made up here; nothing is sent, no
 * tool runs, nothing is written or audited: it trains code paths, it does not prepare an answer. Without
 * it the first calls of a session run this code interpreted (docs/performance.md, "MCP front").
 */
final class WarmUp {

    /** Rounds of the path: enough for the JIT's first tier on the hot methods. */
    static final int ROUNDS = 1_500;
    /** It never takes longer than this, whatever the machine's load. */
    static final long BUDGET_NANOS = TimeUnit.MILLISECONDS.toNanos(400);
    private static final TypeRef<McpSchema.CallToolRequest> CALL = new TypeRef<>() {
    };

    private WarmUp() {
    }

    /** Runs at most {@code rounds} rounds, for at most {@code budgetNanos}; returns how many ran. */
    static int run(McpJsonMapper mapper, int rounds, long budgetNanos) {
        InboundTap tap = new InboundTap((session, key) -> { });
        long deadline = System.nanoTime() + budgetNanos;
        int n = 0;
        try {
            while (n < rounds && System.nanoTime() < deadline) {
                round(mapper, tap, n);
                n++;
            }
        } catch (IOException | RuntimeException e) {
            // a warm-up that fails costs only speed; the real call reports its own errors
        }
        return n;
    }

    private static void round(McpJsonMapper mapper, InboundTap tap, int n) throws IOException {
        String line = "{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"method\":\"tools/call\",\"params\":{\"name\":\"Read\","
                + "\"arguments\":{\"path\":\"warm-up-" + n + ".txt\"},\"_meta\":{\"progressToken\":" + n + "}}}";
        String tapped = tap.inbound(null, line, InboundTap.parse(line));
        McpSchema.JSONRPCRequest request = (McpSchema.JSONRPCRequest) McpSchema.deserializeJsonRpcMessage(mapper,
                tapped);
        McpSchema.CallToolRequest call = mapper.convertValue(request.params(), CALL);
        HostClient.json().valueToTree(call.arguments() == null ? Map.of() : call.arguments());
        JsonNode hostResult = HostClient.json().readTree("{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"result\":{\"ok\":true,"
                + "\"isError\":false,\"errorCode\":null,\"content\":[{\"type\":\"text\",\"text\":\"line " + n
                + "\"}],\"details\":{\"lines\":" + n + "},\"root\":\"workspace\",\"path\":\"warm-up.txt\","
                + "\"traceId\":\"tr_" + n + "\",\"truncated\":false,\"review\":[],\"terminate\":false}}")
                .path("result");
        McpSchema.CallToolResult result = ToolResults.toMcp(hostResult, "warm-up");
        mapper.writeValueAsString(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), result, null));
    }
}
