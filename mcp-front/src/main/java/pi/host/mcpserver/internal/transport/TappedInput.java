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
    private final StdioLines lines;
    /** What was read from {@code in} and not yet cut into lines: {@code buf[start, end)}. */
    private final byte[] buf = new byte[64 * 1024];
    private int start;
    private int end;
    /** The part of a line read so far when it did not fit in {@code buf} or came in several reads. */
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream(256);
    private byte[] current = new byte[0];
    private int pos;
    private boolean ended;
    /** Inside a line that was too long to look at: the rest of it passes through raw. */
    private boolean rawLine;

    public TappedInput(InputStream in, InboundTap tap, StdioLines lines, int maxLine, Runnable endOfInput) {
        this.lines = lines;
        this.in = in;
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
            byte[] line = null;
            boolean newline = false;
            boolean tooLong = false;
            boolean eof = false;
            // the buffer is searched for the line end in bulk, not byte by byte through a stream: a call's
            // line passes here on the SDK's reader thread before the SDK reads it (docs/performance-log.md, floor15)
            while (line == null) {
                int nl = indexOfNewline();
                if (nl >= 0) {
                    tooLong = partial.size() + nl - start > maxLine;
                    line = take(nl + 1);
                    newline = true;
                } else if (partial.size() + end - start > maxLine) {
                    line = take(end); // too long to look at: handed over as it is, the rest follows raw
                } else {
                    partial.write(buf, start, end - start);
                    start = end = 0;
                    int n = in.read(buf, 0, buf.length);
                    if (n < 0) {
                        eof = true;
                        line = take(0);
                    } else {
                        end = n;
                    }
                }
            }
            if (eof && line.length == 0) {
                ended = true;
                endOfInput.run();
                return false;
            }
            boolean whole = newline && !rawLine && !tooLong;
            rawLine = !newline;
            current = whole ? tapped(line) : line;
            pos = 0;
        }
        return true;
    }

    private int indexOfNewline() {
        for (int i = start; i < end; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** What was kept of the line so far plus {@code buf[start, upTo)}, which is consumed. */
    private byte[] take(int upTo) {
        byte[] line;
        if (partial.size() == 0) {
            line = java.util.Arrays.copyOfRange(buf, start, Math.max(start, upTo));
        } else {
            partial.write(buf, start, Math.max(0, upTo - start));
            line = partial.toByteArray();
            partial.reset();
        }
        start = Math.max(start, upTo);
        return line;
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
