package pi.host.mcpserver.internal;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.rpc.RpcEndpoint;
import pi.host.mcpserver.internal.cards.CardElicitation;
import pi.host.core.rpc.HostClient;
import pi.host.core.rpc.HostError;
import pi.host.mcpserver.internal.session.FrontSessions;
import pi.host.mcpserver.internal.tools.ToolCalls;
import pi.host.mcpserver.internal.tools.ToolCatalog;
import pi.host.mcpserver.internal.transport.HttpFront;
import pi.host.mcpserver.internal.transport.InboundTap;
import pi.host.mcpserver.internal.transport.StdioLines;
import pi.host.mcpserver.internal.transport.TappedInput;

/**
 * {@code pi-host mcp}: the host as an MCP server, on the SDK's server side. Active only when the
 * launcher sets {@code pi.host.mcp=true}; it starts serving once the framework reports STARTED (as the
 * stdio server does), over stdio or, with {@code pi.host.mcp.http}, streamable HTTP. A thin client of
 * the host: one JSON-RPC connection ({@link HostClient}), the methods every client uses, no policy of
 * its own. End of stdin (the MCP client closed) aborts running calls and shuts the host down.
 */
@Component(immediate = true, service = {})
public final class McpFront {

    /** Longest stdin line looked at by the tap (the SDK's own bound is larger). */
    static final int MAX_TAPPED_LINE = 16 * 1024 * 1024;
    /** Server-to-client requests (elicitation: a person answering a card) wait this long at most. */
    static final Duration CLIENT_REQUEST_TIMEOUT = Duration.ofDays(7);
    /** At end of input, how long running calls get to end after their abort. */
    private static final long DRAIN_MILLIS = 10_000;
    /** JVM property the front sets when it could not serve, so the launcher exits 1. */
    public static final String FAILED = "pi.host.mcp.failed";

    private final BundleContext context;
    private final RpcEndpoint endpoint;
    private final FrontOptions options;
    private final AtomicBoolean started = new AtomicBoolean();
    private final ExecutorService pool = Executors.newCachedThreadPool(daemonThreads("pi-mcp-"));
    private final ExecutorService refresher = Executors.newSingleThreadExecutor(daemonThreads("pi-mcp-catalog-"));
    private final FrameworkListener onStarted;
    private volatile HostClient host;
    private volatile FrontSessions sessions;
    private volatile McpAsyncServer server;
    private volatile HttpFront http;

    @Activate
    public McpFront(BundleContext context, @Reference RpcEndpoint endpoint,
            @Reference McpJsonDefaults jsonDefaults) {
        // McpJsonDefaults: its mapper is bound only once that component is active (TOOLCHAIN.md)
        this.context = context;
        this.endpoint = endpoint;
        this.options = FrontOptions.from(context::getProperty);
        this.onStarted = event -> {
            if (event.getType() == FrameworkEvent.STARTED) {
                start();
            }
        };
        if (options == null) {
            return;
        }
        context.addFrameworkListener(onStarted);
        if (context.getBundle(0).getState() == Bundle.ACTIVE) {
            start();
        }
    }

    private void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        pool.execute(() -> {
            try {
                serve();
            } catch (Exception | LinkageError e) {
                fail(e);
            }
        });
    }

    private void serve() throws Exception {
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        HostClient h = new HostClient(endpoint);
        host = h;
        FrontSessions s = new FrontSessions(h, options.workspace(), options.permissionMode(), options.stdio());
        sessions = s;
        ToolCalls calls = new ToolCalls(s, pool, options.stdio());
        ToolCatalog catalog = new ToolCatalog(h, s.catalog(), calls.onThreads(pool), refresher);
        if (options.elicitation()) {
            s.onCards(new CardElicitation(h, pool)::onCard);
        }
        InboundTap tap = new InboundTap(s::cancelled);
        if (options.stdio()) {
            // FileDescriptor.out, not System.out: the launcher points System.out at stderr
            StdioLines lines = new StdioLines(new FileOutputStream(FileDescriptor.out), mapper);
            StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper,
                    new TappedInput(new FileInputStream(FileDescriptor.in), tap, lines, MAX_TAPPED_LINE,
                            this::endOfInput), lines);
            server = configure(McpServer.async(transport), mapper, catalog);
        } else {
            HttpFront front = new HttpFront(options, tap, s);
            http = front;
            server = configure(McpServer.async(front.transport(mapper)), mapper, catalog);
            front.start();
        }
        catalog.attach(server);
        s.onCatalogChanged(catalog::changed);
        catalog.changed(); // a tool that came or went while the server was being built
    }

    private McpAsyncServer configure(McpServer.AsyncSpecification<?> spec, McpJsonMapper mapper,
            ToolCatalog catalog) throws HostError {
        String version = context.getBundle().getVersion().toString();
        return spec.serverInfo("pi-host", version)
                .instructions("pi-host runs these tools under its own permissions: a call may ask the user first"
                        + " (an elicitation), and a denied call returns TOOL_DENIED. Paths are relative to the"
                        + " session's workspace.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .jsonMapper(mapper)
                // the host's pipeline validates arguments (INVALID_ARGUMENT, audited); the SDK must not answer first
                .validateToolInputs(false)
                .requestTimeout(CLIENT_REQUEST_TIMEOUT)
                .tools(catalog.initial())
                .build();
    }

    /** The MCP client closed stdin: abort what runs, let it end, then stop the host. */
    private void endOfInput() {
        Thread t = new Thread(() -> {
            FrontSessions s = sessions;
            if (s != null) {
                s.abortAll();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
                while (s.running() > 0 && System.nanoTime() < deadline) {
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            shutdown("end of input");
        }, "pi-mcp-eof");
        t.setDaemon(true);
        t.start();
    }

    private void fail(Throwable e) {
        System.err.println("pi-host mcp: cannot serve: " + e.getMessage());
        System.setProperty(FAILED, String.valueOf(e.getMessage()));
        shutdown("the MCP front could not start");
    }

    private void shutdown(String why) {
        HostClient h = host != null ? host : new HostClient(endpoint);
        try {
            h.callOnCallingThread("host.shutdown", HostClient.params());
        } catch (HostError e) {
            System.err.println("pi-host mcp: shutdown after " + why + " failed: " + e.getMessage());
        }
    }

    @Deactivate
    private void deactivate() {
        context.removeFrameworkListener(onStarted);
        HttpFront f = http;
        if (f != null) {
            f.stop();
        }
        McpAsyncServer s = server;
        if (s != null) {
            s.close();
        }
        HostClient h = host;
        if (h != null) {
            h.close();
        }
        pool.shutdownNow();
        refresher.shutdownNow();
    }

    static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
