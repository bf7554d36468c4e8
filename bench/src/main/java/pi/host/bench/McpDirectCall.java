package pi.host.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * bench/mcp.sh's Java SDK side: the MCP Java SDK's client (the one the bridge runs on, as the bridge
 * builds it: async client, stdio transport, a future per call) calling {@code echo} of a server directly.
 * Arguments: the server's command line. Prints {@code ready} once initialized; then each line {@code N}
 * on stdin runs N sequential calls and prints their times in nanoseconds on one line. Ends at end of input.
 */
public final class McpDirectCall {

    private McpDirectCall() {
    }

    public static void main(String[] args) throws Exception {
        ServerParameters params = ServerParameters.builder(args[0]).args(List.of(args).subList(1, args.length)).build();
        StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(line -> { });
        McpAsyncClient client = McpClient.async(transport).requestTimeout(Duration.ofSeconds(60))
                .capabilities(McpSchema.ClientCapabilities.builder().build())
                .jsonSchemaValidator(new DefaultJsonSchemaValidator()).build();
        client.initialize().block(Duration.ofSeconds(60));
        McpSchema.CallToolRequest echo = McpSchema.CallToolRequest.builder().name("echo")
                .arguments(Map.of("message", "hello")).build();
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            int n = Integer.parseInt(line.strip());
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                McpSchema.CallToolResult r = client.callTool(echo).toFuture().get();
                long t1 = System.nanoTime();
                if (!(r.content().get(0) instanceof McpSchema.TextContent t) || !"Echo: hello".equals(t.text())) {
                    throw new IllegalStateException("echo answered " + r);
                }
                out.append(i == 0 ? "" : " ").append(t1 - t0);
            }
            System.out.println(out);
            System.out.flush();
        }
        client.closeGracefully().block(Duration.ofSeconds(5));
        System.exit(0);
    }
}
