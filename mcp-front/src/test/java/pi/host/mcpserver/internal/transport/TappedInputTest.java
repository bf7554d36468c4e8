package pi.host.mcpserver.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TappedInputTest {

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final StdioLines lines = new StdioLines(stdout, McpJsonDefaults.getMapper());
    private final AtomicInteger ends = new AtomicInteger();

    private String read(String input, int maxLine) throws IOException {
        TappedInput in = new TappedInput(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new InboundTap((s, k) -> { }), lines, maxLine, ends::incrementAndGet);
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Pins: a line the SDK's stdio transport would die on never reaches it; it is answered here, and reading goes on. */
    @Test
    void aLineTheSdkCannotDecodeIsAnsweredAndNotHandedOver() throws IOException {
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n";
        String handed = read("not json\n{\"id\":5,\"x\":1}\n{\"result\":{}}\n" + ping, 1 << 20);
        assertThat(handed).isEqualTo(ping);
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEqualTo(
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: the line is not JSON\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: not a JSON-RPC"
                + " 2.0 request, notification or response\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: not a JSON-RPC"
                + " 2.0 request, notification or response\"}}\n");
        assertThat(ends.get()).isEqualTo(1);
    }

    @Test
    void aToolsCallIsHandedOverWithItsIdAndBlankLinesAreDropped() throws IOException {
        String handed = read("\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"Read\"}}\n", 1 << 20);
        assertThat(handed).contains("\"pi-host/requestId\":\"n:3\"").endsWith("\n");
        assertThat(stdout.size()).isZero();
    }

    @Test
    void aLineOverTheBoundPassesRawToTheEnd() throws IOException {
        String longLine = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + "x".repeat(100) + "\"}}\n";
        assertThat(read(longLine, 32)).isEqualTo(longLine);
    }

    /** A stream that hands out at most {@code chunk} bytes per read, as a pipe may. */
    private String readInPieces(String input, int chunk, int maxLine) throws IOException {
        java.io.InputStream pieces = new java.io.FilterInputStream(
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8))) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
        TappedInput in = new TappedInput(pieces, new InboundTap((s, k) -> { }), lines, maxLine, ends::incrementAndGet);
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Pins: lines are cut at their ends however the reads split them (a line over several reads, several lines in one). */
    @Test
    void linesSplitAcrossReadsAreTappedWhole() throws IOException {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"Read\"}}\n";
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n";
        for (int chunk : new int[] {1, 7, 64, 1 << 16}) {
            String handed = readInPieces(String.format(call, 3) + ping + String.format(call, 4), chunk, 1 << 20);
            assertThat(handed.split("\n", -1)).as("chunk " + chunk).hasSize(4);
            assertThat(handed.split("\n")[0]).contains("\"pi-host/requestId\":\"n:3\"");
            assertThat(handed.split("\n")[1] + "\n").isEqualTo(ping);
            assertThat(handed.split("\n")[2]).contains("\"pi-host/requestId\":\"n:4\"");
        }
        assertThat(stdout.size()).isZero();
        assertThat(ends.get()).isEqualTo(4);
    }

    /** A line longer than the reading buffer (64 KiB) but under the bound is still looked at whole. */
    @Test
    void aLineLongerThanTheBufferIsTappedWhole() throws IOException {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"Write\","
                + "\"arguments\":{\"content\":\"" + "y".repeat(200_000) + "\"}}}\n";
        String handed = readInPieces(call, 1 << 16, 1 << 20);
        assertThat(handed).contains("\"pi-host/requestId\":\"n:5\"").endsWith("\"}}}\n").hasSizeGreaterThan(200_000);
        assertThat(handed.indexOf('\n')).isEqualTo(handed.length() - 1);
    }

    /** Over the bound, in pieces or in one read, a line passes raw and the next one is looked at again. */
    @Test
    void aLineOverTheBoundPassesRawInPiecesToo() throws IOException {
        String longLine = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + "x".repeat(100) + "\"}}\n";
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n";
        for (int chunk : new int[] {1, 10, 1 << 16}) {
            assertThat(readInPieces(longLine + ping, chunk, 64)).as("chunk " + chunk).isEqualTo(longLine + ping);
        }
        // the last line without its end is handed over as it is
        assertThat(readInPieces(ping + "{\"id\":", 3, 64)).isEqualTo(ping + "{\"id\":");
    }

    /** Output is written whole lines at a time, so an answer of the front never lands inside one of the SDK's. */
    @Test
    void outputGoesOutInWholeLines() throws IOException {
        lines.write("{\"a\":".getBytes(StandardCharsets.UTF_8));
        assertThat(stdout.size()).isZero();
        lines.admit("garbage", null);
        lines.write("1}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(stdout.toString(StandardCharsets.UTF_8)).endsWith("}}\n{\"a\":1}\n").startsWith("{\"jsonrpc\"");
    }
}
