package pi.host.mcpserver.internal.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The MCP client's stdin as the SDK's stdio transport reads it: line by line (one JSON-RPC message
 * per line), each line admitted by {@link StdioLines} (or answered there and dropped), then through
 * the {@link InboundTap}. A line longer than {@code maxLine} is passed through untouched (the SDK
 * refuses it). End of input is reported once, after the last line was handed over.
 */
public final class TappedInput extends InputStream {

    private final InputStream in;
    private final InboundTap tap;
    private final int maxLine;
    private final Runnable endOfInput;
    private byte[] current = new byte[0];
    private int pos;
    private boolean ended;
    /** Inside a line that was too long to look at: the rest of it passes through raw. */
    private boolean rawLine;

    private final StdioLines lines;

    public TappedInput(InputStream in, InboundTap tap, StdioLines lines, int maxLine, Runnable endOfInput) {
        this.lines = lines;
        this.in = new java.io.BufferedInputStream(in, 64 * 1024);
        this.tap = tap;
        this.maxLine = maxLine;
        this.endOfInput = endOfInput;
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return current[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, current.length - pos);
        System.arraycopy(current, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Makes bytes available; false at end of input. */
    private boolean fill() throws IOException {
        while (pos >= current.length) {
            if (ended) {
                return false;
            }
            ByteArrayOutputStream line = new ByteArrayOutputStream(256);
            int c;
            boolean newline = false;
            while ((c = in.read()) != -1) {
                line.write(c);
                if (c == '\n') {
                    newline = true;
                    break;
                }
                if (line.size() > maxLine) {
                    break; // too long to look at: handed over as it is, the rest follows raw
                }
            }
            if (c == -1 && line.size() == 0) {
                ended = true;
                endOfInput.run();
                return false;
            }
            boolean whole = newline && !rawLine;
            rawLine = !newline;
            current = whole ? tapped(line.toByteArray()) : line.toByteArray();
            pos = 0;
        }
        return true;
    }

    /** The line as the SDK gets it: tapped, or nothing when it was refused (and answered) here. */
    private byte[] tapped(byte[] line) {
        String text = new String(line, 0, line.length - 1, StandardCharsets.UTF_8);
        com.fasterxml.jackson.databind.JsonNode tree = InboundTap.parse(text);
        if (!lines.admit(text, tree)) {
            return new byte[0];
        }
        String out = tap.inbound(null, text, tree);
        return out == text ? line : (out + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
