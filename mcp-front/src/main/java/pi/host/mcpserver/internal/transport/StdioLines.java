package pi.host.mcpserver.internal.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The stdio side of the front's wire, around the SDK's stdio transport. The SDK 2.1.0 transport stops
 * reading for good at the first line it cannot decode as a JSON-RPC message, and answers nothing; so
 * each line is first decoded with the SDK's own {@code deserializeJsonRpcMessage}, and a line it would
 * choke on is answered here ({@code -32700} parse error, or {@code -32600} for JSON that is no
 * JSON-RPC message, with the request's id when it has one) and never handed over. Output is written a
 * whole line at a time, so these answers never cut into one of the SDK's.
 */
public final class StdioLines extends OutputStream {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final OutputStream out;
    private final McpJsonMapper mapper;
    private final java.io.ByteArrayOutputStream partial = new java.io.ByteArrayOutputStream(1024);

    public StdioLines(OutputStream out, McpJsonMapper mapper) {
        this.out = out;
        this.mapper = mapper;
    }

    /**
     * True when the SDK can take this line; otherwise it has been answered here. {@code tree} is the
     * line parsed ({@link InboundTap#parse}), null when it is not JSON. A request or notification with
     * a string method, a plain id and object params is what the SDK decodes; anything else is decoded
     * by the SDK's own function first, to be sure.
     */
    public boolean admit(String line, JsonNode tree) {
        if (line.isBlank()) {
            return false; // an empty line is no message; nothing to answer
        }
        if (tree != null && tree.isObject() && tree.path("method").isTextual()
                && (!tree.has("id") || tree.get("id").isTextual() || tree.get("id").isIntegralNumber())
                && (!tree.has("params") || tree.get("params").isObject())) {
            return true;
        }
        try {
            McpSchema.deserializeJsonRpcMessage(mapper, line);
            return true;
        } catch (IOException | RuntimeException e) {
            reply(line);
            return false;
        }
    }

    private void reply(String line) {
        Object id = null;
        int code;
        String message;
        try {
            JsonNode tree = JSON.readTree(line);
            if (tree == null) {
                throw new IOException("no JSON value");
            }
            code = -32600;
            message = "Invalid Request: not a JSON-RPC 2.0 request, notification or response";
            JsonNode rawId = tree != null && tree.isObject() ? tree.get("id") : null;
            if (rawId != null && (rawId.isTextual() || rawId.isIntegralNumber())) {
                id = rawId.isTextual() ? rawId.asText() : rawId.numberValue();
            }
        } catch (IOException e) {
            code = -32700;
            message = "Parse error: the line is not JSON";
        }
        // built as a tree: the SDK's response record refuses the null id a parse error must carry
        com.fasterxml.jackson.databind.node.ObjectNode error = JSON.createObjectNode().put("jsonrpc", "2.0");
        if (id instanceof String) {
            error.put("id", (String) id);
        } else if (id instanceof Number) {
            error.put("id", ((Number) id).longValue());
        } else {
            error.putNull("id");
        }
        error.putObject("error").put("code", code).put("message", message);
        try {
            writeLine(JSON.writeValueAsString(error));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private synchronized void writeLine(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.flush();
    }

    @Override
    public synchronized void write(int b) throws IOException {
        partial.write(b);
        if (b == '\n') {
            partial.writeTo(out);
            partial.reset();
            out.flush();
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                partial.write(b, start, i + 1 - start);
                partial.writeTo(out);
                partial.reset();
                start = i + 1;
            }
        }
        partial.write(b, start, off + len - start);
        if (start > off) {
            out.flush();
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        // lines go out as they complete; a partial line waits for its end
    }
}
