package pi.host.tools.internal.file;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import org.osgi.service.component.annotations.Component;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;

/**
 * {@code Read}: line-numbered content of one file under a {@code [path#TAG]} header. The file is
 * streamed once: the digest covers every byte while only the requested window is kept.
 */
@Component(service = ToolProvider.class)
@Tool(name = "Read", risk = Risk.LOW, pathArg = "path", pathKind = PathKind.EXISTING_FILE, timeoutMs = 60_000)
public final class ReadTool implements ToolProvider {

    static final int DEFAULT_LIMIT = 2000;
    static final int MAX_LINE_CHARS = 2000;
    private static final int SNIFF_BYTES = 8192;

    @Override
    public String description() {
        return "Read a file of the workspace (or the session scratch dir). Returns line-numbered content under a"
                + " [path#TAG] header; pass the tag to Edit. Use offset (first line, 1-based) and limit (line"
                + " count) for large files. Lines longer than " + MAX_LINE_CHARS + " characters are cut.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"path\":{\"type\":\"string\",\"description\":\"File path, relative to the workspace root\"},"
                + "\"file_path\":{\"type\":\"string\",\"description\":\"Alias of path\"},"
                + "\"offset\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"First line to show (1-based)\"},"
                + "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100000,\"description\":\"Lines to show\"}"
                + "},\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) throws IOException {
        ResolvedPath path = call.path().orElseThrow();
        long offset = number(call.arguments().get("offset"), 1);
        long limit = number(call.arguments().get("limit"), DEFAULT_LIMIT);
        if (binary(path)) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, path.display() + " looks like a binary file ("
                    + Files.size(path.absolute()) + " bytes); Read shows text files only");
        }
        MessageDigest sha = Tags.sha256();
        StringBuilder body = new StringBuilder();
        long line = 0;
        long shown = 0;
        boolean more = false;
        try (InputStream in = new DigestInputStream(new BufferedInputStream(Files.newInputStream(path.absolute()),
                64 * 1024), sha); LineSplitter lines = new LineSplitter(in)) {
            String text;
            while ((text = lines.next()) != null) {
                line++;
                if (call.isCancelled()) {
                    return ToolResult.error(ErrorCode.TOOL_ABORTED, "aborted");
                }
                if (line < offset) {
                    continue;
                }
                if (shown == limit) {
                    more = true;
                    lines.drain(); // the digest must cover the whole file
                    break;
                }
                if (text.length() > MAX_LINE_CHARS) {
                    text = text.substring(0, MAX_LINE_CHARS) + " [line cut at " + MAX_LINE_CHARS + " characters]";
                }
                body.append(line).append('\t').append(text).append('\n');
                shown++;
            }
        }
        StringBuilder out = new StringBuilder(Tags.header(path.display(), sha.digest())).append('\n').append(body);
        if (shown == 0) {
            out.append(line == 0 ? "(empty file)\n" : "(no lines at offset " + offset + "; the file has " + line
                    + " lines)\n");
        }
        if (more) {
            out.append("[more lines follow; continue with offset ").append(offset + shown).append("]\n");
        }
        return ToolResult.builder().text(out.toString()).truncated(more).detail("lines", shown)
                .detail("firstLine", offset).build();
    }

    private static boolean binary(ResolvedPath path) throws IOException {
        try (InputStream in = Files.newInputStream(path.absolute())) {
            byte[] head = in.readNBytes(SNIFF_BYTES);
            for (byte b : head) {
                if (b == 0) {
                    return true;
                }
            }
            return false;
        }
    }

    private static long number(Object value, long fallback) {
        return value instanceof Number ? ((Number) value).longValue() : fallback;
    }

    /** Splits a byte stream into UTF-8 lines (LF or CRLF), invalid bytes replaced. */
    static final class LineSplitter implements AutoCloseable {
        private final InputStream in;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        private boolean eof;

        LineSplitter(InputStream in) {
            this.in = in;
        }

        String next() throws IOException {
            if (eof) {
                return null;
            }
            line.reset();
            int b;
            while ((b = in.read()) != -1) {
                if (b == '\n') {
                    return decode();
                }
                line.write(b);
            }
            eof = true;
            return line.size() == 0 ? null : decode();
        }

        private String decode() {
            byte[] bytes = line.toByteArray();
            int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
            return new String(bytes, 0, n, StandardCharsets.UTF_8);
        }

        void drain() throws IOException {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            eof = true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
