package pi.host.tools.internal.file;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.BitSet;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.Builtin;
import pi.host.spi.PathChangedException;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;
import pi.host.spi.PinnedFiles;
import pi.host.spi.Provenance;
import pi.host.spi.ToolKind;

/**
 * {@code Read}: line-numbered content of one file under a {@code [path#TAG]} header. The file is
 * streamed once in 64 KiB chunks: the digest covers every byte while only the requested window is
 * kept (each line of it at most {@link #MAX_LINE_BYTES}), so a small window of a huge file costs a
 * hash of the file and nothing more. The shown lines become displayed lines in the session's
 * provenance. The file is opened below its pinned root with no link followed ({@link PinnedFiles}),
 * so what is read is the file the host checked, never one a swapped folder points to.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.READ, aliases = "path=file_path", parallel = true)
@Tool(name = "Read", risk = Risk.LOW, pathArg = "path", pathKind = PathKind.EXISTING_FILE, timeoutMs = 60_000)
public final class ReadTool implements ToolProvider {

    static final int DEFAULT_LIMIT = 2000;
    static final int MAX_LINE_CHARS = 2000;
    /** Bytes of one line kept for display; enough for {@link #MAX_LINE_CHARS} characters of UTF-8. */
    static final int MAX_LINE_BYTES = MAX_LINE_CHARS * 4;
    static final int SNIFF_BYTES = 8192;
    static final int CHUNK = 64 * 1024;
    /** The smallest read buffer, for a file that grows while it is read. */
    static final int MIN_CHUNK = 1024;
    /** The most characters the output buffer is sized for up front. */
    static final int MAX_PRESIZED_CHARS = 1 << 20;

    private final Provenance provenance;
    private final PinnedFiles files;

    @Activate
    public ReadTool(@Reference Provenance provenance, @Reference PinnedFiles files) {
        this.provenance = provenance;
        this.files = files;
    }

    @Override
    public String description() {
        return "Read a file of the workspace (or the session scratch dir). Returns line-numbered content under a"
                + " [path#TAG] header; pass the tag to Edit. Use offset (first line, 1-based) and limit (line"
                + " count) for large files. Lines longer than " + MAX_LINE_CHARS + " characters are cut."
                + " Binary files are refused.";
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
        long end = offset + limit; // first line not shown
        MessageDigest sha = Tags.sha256();
        StringBuilder body = new StringBuilder();
        BitSet shownLines = new BitSet();
        LineBytes line = new LineBytes();
        boolean lineCut = false;
        long lineNo = 1;
        long size = 0;
        byte last = '\n';
        try (PinnedDir root = files.root(call, path); PinnedFile in = root.open(root.relative(path.absolute()))) {
            // chunks of 64 KiB, but no bigger than the file needs: most reads are of small files, and
            // allocating (zeroing) a buffer they do not fill was a visible share of a small Read
            long fileSize = in.info().size();
            byte[] buf = new byte[(int) Math.min(CHUNK, Math.max(fileSize + 1, MIN_CHUNK))];
            body.ensureCapacity((int) Math.min(fileSize + fileSize / 4 + 64, MAX_PRESIZED_CHARS));
            int n;
            long sniffed = 0; // the sniff covers the file's first SNIFF_BYTES, whatever the chunks
            while ((n = in.read(buf, 0, buf.length)) > 0) {
                if (call.isCancelled()) {
                    return ToolResult.error(ErrorCode.TOOL_ABORTED, "aborted");
                }
                if (sniffed < SNIFF_BYTES && binary(buf, (int) Math.min(n, SNIFF_BYTES - sniffed))) {
                    return ToolResult.error(ErrorCode.INVALID_ARGUMENT, path.display() + " is a binary file ("
                            + fileSize + " bytes, a NUL byte in its first " + SNIFF_BYTES
                            + " bytes); Read shows text files only");
                }
                sniffed += n;
                sha.update(buf, 0, n);
                size += n;
                last = buf[n - 1];
                boolean inWindow = lineNo >= offset && lineNo < end;
                // line by line, each line's bytes copied at once: a write per byte (a synchronized
                // ByteArrayOutputStream.write) was most of a small Read's own CPU time
                for (int i = 0; i < n; ) {
                    int nl = indexOf(buf, (byte) '\n', i, n);
                    int stop = nl < 0 ? n : nl;
                    if (inWindow && stop > i) {
                        int take = Math.min(stop - i, Math.max(0, MAX_LINE_BYTES - line.size()));
                        line.write(buf, i, take);
                        lineCut |= take < stop - i;
                    }
                    if (nl < 0) {
                        break;
                    }
                    if (inWindow) {
                        emit(body, lineNo, line, lineCut);
                        shownLines.set(Math.toIntExact(lineNo));
                        line.reset();
                        lineCut = false;
                    }
                    lineNo++;
                    inWindow = lineNo >= offset && lineNo < end;
                    i = nl + 1;
                }
            }
        } catch (PathChangedException e) {
            return FileErrors.changed(path, e);
        }
        long total = size == 0 ? 0 : last == '\n' ? lineNo - 1 : lineNo;
        if (size > 0 && last != '\n' && lineNo >= offset && lineNo < end) {
            emit(body, lineNo, line, lineCut);
            shownLines.set(Math.toIntExact(lineNo));
        }
        byte[] digest = sha.digest();
        long shown = shownLines.cardinality();
        boolean more = total >= end;
        String header = Tags.header(path.display(), digest);
        StringBuilder out = new StringBuilder(header.length() + 1 + body.length() + 96).append(header).append('\n')
                .append(body);
        if (shown == 0) {
            out.append(total == 0 ? "(empty file)\n" : "(no lines at offset " + offset + "; the file has " + total
                    + " lines)\n");
        }
        if (more) {
            out.append("[more lines follow; continue with offset ").append(end).append(" of ").append(total)
                    .append("]\n");
        }
        provenance.displayed(call.sessionId(), path.absolute(), digest, shownLines);
        return ToolResult.builder().text(out.toString()).truncated(more).detail("lines", shown)
                .detail("firstLine", offset).detail("totalLines", total).detail("tag", Tags.tag(digest)).build();
    }

    private static void emit(StringBuilder body, long lineNo, LineBytes line, boolean cut) {
        byte[] bytes = line.bytes(); // decoded in place, not copied first
        int length = line.size();
        int from = lineNo == 1 && length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB
                && (bytes[2] & 0xff) == 0xBF ? 3 : 0; // a BOM is not content
        int to = !cut && length > from && bytes[length - 1] == '\r' ? length - 1 : length;
        String text = new String(bytes, from, to - from, StandardCharsets.UTF_8);
        if (cut || text.length() > MAX_LINE_CHARS) {
            text = text.substring(0, Math.min(text.length(), MAX_LINE_CHARS)) + " [line cut at " + MAX_LINE_CHARS
                    + " characters]";
        }
        body.append(lineNo).append('\t').append(text).append('\n');
    }

    private static int indexOf(byte[] buf, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** The bytes of the line being read, readable in place. */
    private static final class LineBytes extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }
    }

    static boolean binary(byte[] head, int n) {
        for (int i = 0; i < Math.min(n, SNIFF_BYTES); i++) {
            if (head[i] == 0) {
                return true;
            }
        }
        return false;
    }

    private static long number(Object value, long fallback) {
        return value instanceof Number ? ((Number) value).longValue() : fallback;
    }
}
