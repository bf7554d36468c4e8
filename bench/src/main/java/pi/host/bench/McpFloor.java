package pi.host.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * bench/mcp-front.sh's floor ({@code --floor}): the MCP Java SDK's stdio server (the bundle set's mcp-core,
 * Jackson and Reactor jars, no OSGi) with one tool, {@code read}, that reads {@code ROOT/path} with
 * {@code Files.readString} and answers it as one text content; no pipeline, no audit, no tap, no host.
 * What {@code pi-host mcp} cannot go below while its calls run on this SDK.
 *
 * <p>Arguments: {@code SHAPE ROOT}. The shape is where the SDK runs the tool:
 * <ul>
 * <li>{@code pool}: the front's shape: the async server, the handler hands the call to a thread of its
 *     own cached pool and completes the {@code Mono} from there, under one lock (the front's
 *     {@code ToolCalls} and {@code SerialAnswers});
 * <li>{@code sync}: the SDK's sync server as it comes (a blocking handler, run on Reactor's
 *     {@code boundedElastic});
 * <li>{@code immediate}: the sync server with {@code immediateExecution}: the tool runs on the SDK's
 *     reader thread, no hand-off at all; the lowest the SDK goes, and a shape the front cannot take (a
 *     call waiting on a card needs the reader to read the elicitation answer).
 * </ul>
 * The SDK's input validation is off, as the front has it. Exits at the end of stdin (a JVM archive
 * asked for with {@code -XX:AOTCacheOutput} or {@code -XX:ArchiveClassesAtExit} is written then).
 */
public final class McpFloor {

    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},"
            + "\"required\":[\"path\"]}";

    private McpFloor() {
    }

    public static void main(String[] args) throws Exception {
        String shape = args[0];
        Path root = Path.of(args[1]);
        McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
        CountDownLatch eof = new CountDownLatch(1);
        InputStream in = new FilterInputStream(new FileInputStream(FileDescriptor.in)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    eof.countDown();
                }
                return n;
            }
        };
        // the SDK writes a message and its newline apart and then flushes: one write(2) per message, as the
        // front's StdioLines does
        BufferedOutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper, in, out);
        McpSchema.Tool tool = McpSchema.Tool.builder().name("read").description("reads a file under the root")
                .inputSchema(mapper, SCHEMA).build();
        McpSchema.ServerCapabilities caps = McpSchema.ServerCapabilities.builder().tools(true).build();
        switch (shape) {
            case "pool" -> {
                ExecutorService pool = Executors.newCachedThreadPool(daemonThreads());
                Object lock = new Object();
                McpServer.async(transport).serverInfo("floor", "1").capabilities(caps).jsonMapper(mapper)
                        .validateToolInputs(false)
                        .tools(McpServerFeatures.AsyncToolSpecification.builder().tool(tool)
                                .callHandler((exchange, request) -> Mono.<McpSchema.CallToolResult>create(
                                        sink -> pool.execute(() -> {
                                            McpSchema.CallToolResult r;
                                            try {
                                                r = read(root, request);
                                            } catch (RuntimeException e) {
                                                synchronized (lock) {
                                                    sink.error(e);
                                                }
                                                return;
                                            }
                                            synchronized (lock) {
                                                sink.success(r);
                                            }
                                        })))
                                .build())
                        .build();
            }
            case "sync", "immediate" -> McpServer.sync(transport).serverInfo("floor", "1").capabilities(caps)
                    .jsonMapper(mapper).validateToolInputs(false).immediateExecution("immediate".equals(shape))
                    .tools(McpServerFeatures.SyncToolSpecification.builder().tool(tool)
                            .callHandler((exchange, request) -> read(root, request)).build())
                    .build();
            default -> throw new IllegalArgumentException("shape: pool, sync or immediate, not " + shape);
        }
        eof.await();
        System.exit(0);
    }

    private static McpSchema.CallToolResult read(Path root, McpSchema.CallToolRequest request) {
        Map<String, Object> a = request.arguments();
        try {
            String text = Files.readString(root.resolve(String.valueOf(a.get("path"))));
            return McpSchema.CallToolResult.builder().addTextContent(text).isError(false).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "floor-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
