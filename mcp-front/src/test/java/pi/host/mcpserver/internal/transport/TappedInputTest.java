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
