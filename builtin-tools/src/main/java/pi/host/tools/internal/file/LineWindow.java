package pi.host.tools.internal.file;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.BitSet;
import pi.host.api.ToolCall;
import pi.host.spi.PinnedFile;

/**
 * Read's one pass over an open file: every byte into the digest, the binary sniff of the first
 * {@link ReadTool#SNIFF_BYTES}, and the numbered lines of the window [offset, end) kept (each line at
 * most {@link ReadTool#MAX_LINE_BYTES}). The file is streamed in chunks of at most
 * {@link ReadTool#CHUNK}.
 *
 * <p>A class of its own, apart from the call's set-up and answer, so the JIT compiles this loop by
 * itself: inside {@code ReadTool.execute} C2 had spent its node budget on the path's once-per-call
 * opening before it reached the loop, so the loop's callees stayed calls while the compilation was the
 * largest of a fresh host's first calls (docs/performance-log.md, "branch `c2big12`"). bin/jvm.sh keeps
 * {@link #read} from being inlined back.
 */
final class LineWindow {

    /** How a pass ended. */
    enum End {
        /** the file was read to its end */
        READ,
        /** a NUL byte in the sniffed head: not a text file */
        BINARY,
        /** the call was cancelled between chunks */
        CANCELLED
    }

    private final long offset;
    private final long end;
    private final MessageDigest sha = Tags.sha256();
    private final StringBuilder body = new StringBuilder();
    private final BitSet shownLines = new BitSet();
    private final LineBytes line = new LineBytes();
    private boolean lineCut;
    private long lineNo = 1;
    private long size;
    private byte last = '\n';

    /** The window of lines {@code offset} (1-based) up to, not including, {@code end}. */
    LineWindow(long offset, long end) {
        this.offset = offset;
        this.end = end;
    }

    /** Streams {@code in} to its end (of {@code fileSize} bytes when opened), unless it is binary or the call is cancelled. */
    End read(PinnedFile in, long fileSize, ToolCall call) throws IOException {
        // chunks of 64 KiB, but no bigger than the file needs: most reads are of small files, and
        // allocating (zeroing) a buffer they do not fill was a visible share of a small Read
        byte[] buf = new byte[(int) Math.min(ReadTool.CHUNK, Math.max(fileSize + 1, ReadTool.MIN_CHUNK))];
        body.ensureCapacity((int) Math.min(fileSize + fileSize / 4 + 64, ReadTool.MAX_PRESIZED_CHARS));
        int n;
        long sniffed = 0; // the sniff covers the file's first SNIFF_BYTES, whatever the chunks
        while ((n = in.read(buf, 0, buf.length)) > 0) {
            if (call.isCancelled()) {
                return End.CANCELLED;
            }
            if (sniffed < ReadTool.SNIFF_BYTES
                    && ReadTool.binary(buf, (int) Math.min(n, ReadTool.SNIFF_BYTES - sniffed))) {
                return End.BINARY;
            }
            sniffed += n;
            sha.update(buf, 0, n);
            size += n;
            last = buf[n - 1];
            lines(buf, n);
        }
        if (size > 0 && last != '\n' && inWindow()) {
            emit();
        }
        return End.READ;
    }

    /** One chunk's bytes, line by line, each line's bytes copied at once (a write per byte, a synchronized
     * ByteArrayOutputStream.write, was most of a small Read's own CPU time). */
    private void lines(byte[] buf, int n) {
        boolean inWindow = inWindow();
        for (int i = 0; i < n; ) {
            int nl = indexOf(buf, (byte) '\n', i, n);
            int stop = nl < 0 ? n : nl;
            if (inWindow && stop > i) {
                int take = Math.min(stop - i, Math.max(0, ReadTool.MAX_LINE_BYTES - line.size()));
                line.write(buf, i, take);
                lineCut |= take < stop - i;
            }
            if (nl < 0) {
                break;
            }
            if (inWindow) {
                emit();
            }
            lineNo++;
            inWindow = inWindow();
            i = nl + 1;
        }
    }

    private boolean inWindow() {
        return lineNo >= offset && lineNo < end;
    }

    /** The current line, numbered, into the body and the shown lines. */
    private void emit() {
        byte[] bytes = line.bytes(); // decoded in place, not copied first
        int length = line.size();
        int from = lineNo == 1 && length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB
                && (bytes[2] & 0xff) == 0xBF ? 3 : 0; // a BOM is not content
        int to = !lineCut && length > from && bytes[length - 1] == '\r' ? length - 1 : length;
        String text = new String(bytes, from, to - from, StandardCharsets.UTF_8);
        if (lineCut || text.length() > ReadTool.MAX_LINE_CHARS) {
            text = text.substring(0, Math.min(text.length(), ReadTool.MAX_LINE_CHARS)) + " [line cut at "
                    + ReadTool.MAX_LINE_CHARS + " characters]";
        }
        body.append(lineNo).append('\t').append(text).append('\n');
        shownLines.set(Math.toIntExact(lineNo));
        line.reset();
        lineCut = false;
    }

    private static int indexOf(byte[] buf, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** The file's lines; 0 for an empty file, a last line without a newline counted. */
    long totalLines() {
        return size == 0 ? 0 : last == '\n' ? lineNo - 1 : lineNo;
    }

    /** The numbered lines shown, each ending in a newline. */
    StringBuilder body() {
        return body;
    }

    BitSet shownLines() {
        return shownLines;
    }

    /** The digest of every byte read; once, after {@link #read} returned {@link End#READ}. */
    byte[] digest() {
        return sha.digest();
    }

    /** The bytes of the line being read, readable in place. */
    private static final class LineBytes extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }
    }
}
