package pi.host.mcp.internal.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The JSON mapper a stdio transport reads the server's lines with, reporting a line that is not a
 * JSON-RPC message. The SDK stops reading a server after such a line (its reader ends); without this the
 * bridge would only notice when calls time out. Everything else is the SDK's Jackson mapper.
 */
final class CheckedMapper implements McpJsonMapper {

    private final McpJsonMapper delegate;
    private final Consumer<String> badLine;

    CheckedMapper(McpJsonMapper delegate, Consumer<String> badLine) {
        this.delegate = delegate;
        this.badLine = badLine;
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        T value;
        try {
            value = delegate.readValue(content, type);
        } catch (IOException | RuntimeException e) {
            badLine.accept("the server wrote a line on stdout that is not JSON: " + preview(content));
            throw e;
        }
        if (value instanceof Map<?, ?> m && !(m.containsKey("method") || m.containsKey("result")
                || m.containsKey("error"))) {
            badLine.accept("the server wrote a line on stdout that is not a JSON-RPC message: " + preview(content));
        }
        return value;
    }

    private static String preview(String line) {
        String p = line.length() > 120 ? line.substring(0, 120) + "..." : line;
        return p.replaceAll("\\p{Cntrl}", "?");
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object value, Class<T> type) {
        return delegate.convertValue(value, type);
    }

    @Override
    public <T> T convertValue(Object value, TypeRef<T> type) {
        return delegate.convertValue(value, type);
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(value);
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(value);
    }
}
