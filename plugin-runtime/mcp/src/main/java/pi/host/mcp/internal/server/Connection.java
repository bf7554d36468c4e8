package pi.host.mcp.internal.server;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import pi.host.api.ErrorCode;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.mcp.internal.config.ServerSpec;
import pi.host.mcp.internal.tools.ResultMapping;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * One started server: the SDK client over its transport, the server's process (stdio), the calls in
 * flight. It ends once ({@link #died}): its process exited, it wrote what is not JSON-RPC, it stopped
 * answering while a call waited, or it was closed; every call in flight then ends with
 * {@code MCP_SERVER_UNAVAILABLE} at once instead of waiting for its timeout.
 */
public final class Connection {

    /** Most pages of {@code tools/list} read from one server. */
    static final int MAX_PAGES = 100;
    /** How long a failed initialize waits for the server's exit to be told (it follows the closed output). */
    private static final long EXIT_GRACE_MS = 1_000;
    /** A call waits this long without a word from the server before the bridge asks for a ping. */
    static final long SILENCE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** How long a ping may take before the server counts as gone. */
    static final Duration PING_BOUND = Duration.ofSeconds(5);

    /** Told once when the connection ends, and when the server's tool list changed. */
    public interface Listener {
        void died(Connection connection, String why);

        void toolsChanged(Connection connection);
    }

    /** A call waiting for its result; the elicitation route reads whose call it is. */
    public record InFlight(ToolCall call, CompletableFuture<ToolResult> result) {
    }

    private final ServerSpec spec;
    private final ServerContext context;
    private final Listener listener;
    private final StderrTail stderr = new StderrTail();
    private final ObservedTransport transport;
    private final StdioLaunch.Launch launch;
    private final McpAsyncClient client;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final AtomicBoolean dead = new AtomicBoolean();
    private final AtomicBoolean pinging = new AtomicBoolean();
    private final CompletableFuture<String> exitStatus = new CompletableFuture<>();
    private final CompletableFuture<Void> exited = new CompletableFuture<>();
    private volatile ProcessHandle watchdog;
    private volatile String deathReason;

    Connection(ServerSpec spec, ServerContext context, Listener listener) {
        this.spec = spec;
        this.context = context;
        this.listener = listener;
        McpClientTransport raw;
        if (spec.transport() == ServerSpec.Transport.STDIO) {
            launch = context.launch().transport(spec, context.loginPath().get(),
                    new CheckedMapper(context.mapper(), why -> died(why)));
            launch.transport().setStdErrorHandler(stderr::add);
            raw = launch.transport();
        } else {
            launch = null;
            HttpRequest.Builder request = HttpRequest.newBuilder();
            spec.headers().forEach(request::header);
            java.net.URI url = spec.url();
            String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            raw = HttpClientStreamableHttpTransport.builder(url.getScheme() + "://" + url.getRawAuthority())
                    .endpoint(path + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                    .requestBuilder(request).jsonMapper(context.mapper())
                    .connectTimeout(Duration.ofMillis(Math.min(spec.timeoutMs(), 10_000)))
                    .maxResponseSize(StdioLaunch.MAX_MESSAGE_CHARS).build();
        }
        transport = new ObservedTransport(raw);
        client = McpClient.async(transport)
                .clientInfo(new McpSchema.Implementation("pi-host", "0.1.0"))
                // elicitation (form) only: sampling and roots are not offered
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation(true, false).build())
                .elicitation(request -> context.elicitor().elicit(this, request))
                .toolsChangeConsumer(tools -> {
                    listener.toolsChanged(this);
                    return Mono.empty();
                })
                .loggingConsumer(this::log)
                .jsonSchemaValidator(context.validator())
                .initializationTimeout(Duration.ofMillis(spec.timeoutMs()))
                // the host's deadline ends a call first; this only bounds what the bridge asks itself
                .requestTimeout(Duration.ofMillis(spec.timeoutMs() + 10_000))
                .build();
    }

    public String serverId() {
        return spec.id();
    }

    /**
     * Initializes the server and reads its tools, within the server's timeout.
     *
     * @throws StartFailed with the reason (exited, did not answer, refused)
     */
    List<McpSchema.Tool> start() throws StartFailed {
        long bound = spec.timeoutMs();
        CompletableFuture<McpSchema.InitializeResult> init = client.initialize().toFuture();
        CompletableFuture<Void> exited = watchExit(bound);
        try {
            CompletableFuture.anyOf(init, exited).get(bound + 1_000, TimeUnit.MILLISECONDS);
            if (!init.isDone() || deathReason != null) {
                throw new StartFailed(exitReason());
            }
            init.join();
            return tools();
        } catch (TimeoutException e) {
            throw new StartFailed("the server did not answer initialize within " + bound + " ms");
        } catch (ExecutionException | java.util.concurrent.CompletionException e) {
            // a server that exits fails initialize as its output closes, a moment before its exit is told:
            // give the exit that moment (stdio: an http server has no exit to tell), so the reason is the same
            // whichever comes first
            if (deathReason != null || (launch != null && exitedWithin(exited, EXIT_GRACE_MS))) {
                throw new StartFailed(exitReason());
            }
            if (root(e) instanceof TimeoutException) {
                throw new StartFailed("the server did not answer initialize within " + bound + " ms");
            }
            throw new StartFailed("initialize failed: " + message(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartFailed("interrupted while starting");
        }
    }

    private static boolean exitedWithin(CompletableFuture<Void> exited, long ms) {
        try {
            exited.get(ms, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Why the server is gone: the death already recorded, else its exit as the watchdog told it. */
    private String exitReason() {
        String why = deathReason;
        return why != null ? why : exitMessage();
    }

    private String exitMessage() {
        return "the server process exited" + exitDetail();
    }

    /** Every tool the server lists (bounded in pages), in the server's order. */
    List<McpSchema.Tool> tools() throws StartFailed {
        List<McpSchema.Tool> all = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            McpSchema.ListToolsResult r;
            try {
                r = client.listTools(cursor).block(Duration.ofMillis(spec.timeoutMs()));
            } catch (RuntimeException e) {
                throw new StartFailed("tools/list failed: " + message(e));
            }
            if (r == null) {
                break;
            }
            if (r.tools() != null) {
                all.addAll(r.tools());
            }
            cursor = r.nextCursor();
            if (cursor == null || cursor.isEmpty()) {
                break;
            }
        }
        return all;
    }

    /**
     * Completes when the server has exited (stdio; never for http): told by the watchdog's exit
     * notification, or seen by the SDK's wait for the process when there was none (the watchdog killed).
     */
    private CompletableFuture<Void> watchExit(long bound) {
        if (launch == null) {
            return exited;
        }
        context.work().execute(() -> {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(bound);
            while (!dead.get()) {
                try {
                    launch.transport().awaitForExit();
                    break;
                } catch (NullPointerException notStartedYet) {
                    // the SDK starts the process on its own thread soon after initialize is asked for
                    if (System.nanoTime() > until) {
                        return;
                    }
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                } catch (RuntimeException interrupted) {
                    return;
                }
            }
            exited();
        });
        return exited;
    }

    private void exited() {
        // the reason first: a start that sees the exit reads it
        died(exitMessage());
        exited.complete(null);
    }

    /** The watchdog process, found once by its marker (null before it started or once it is gone). */
    private ProcessHandle watchdog() {
        ProcessHandle w = watchdog;
        if (w == null && launch != null) {
            w = launch.watchdog().orElse(null);
            watchdog = w;
        }
        return w;
    }

    /** Takes the watchdog's exit notification (its logger is this launch's marker); others are the server's. */
    private Mono<Void> log(McpSchema.LoggingMessageNotification n) {
        if (launch != null && launch.marker().equals(n.logger()) && n.data() != null) {
            exitStatus.complete(String.valueOf(n.data()));
            context.work().execute(this::exited);
        }
        return Mono.empty();
    }

    /** The exit status the watchdog reported, and the last line the server wrote on stderr, if any. */
    private String exitDetail() {
        String status = exitStatus.isDone() ? " with status " + exitStatus.getNow("?") : "";
        String last = stderr.last();
        return last == null ? status : status + ": " + last;
    }

    /**
     * Starts one call; see the class comment for how it ends. The result completes on the SDK's reader
     * thread (or the cancelling one), which then ends the host's call: no thread waits for it.
     */
    CompletableFuture<ToolResult> call(String tool, Map<String, Object> arguments, ToolCall call) {
        String token = "pi-" + call.traceId();
        InFlight f = new InFlight(call, new CompletableFuture<>());
        inFlight.put(token, f);
        CompletableFuture<ToolResult> result = f.result();
        // the record goes before the host's call ends with the result (the host's stage depends on this one)
        CompletableFuture<ToolResult> ended = result.whenComplete((r, e) -> {
            inFlight.remove(token);
            transport.done(token);
        });
        if (dead.get()) {
            result.complete(unavailable(deathReason));
            return ended;
        }
        try {
            Disposable sent = client.callTool(McpSchema.CallToolRequest.builder().name(tool).arguments(arguments)
                    .progressToken(token).build())
                    .subscribe(r -> result.complete(ResultMapping.map(spec.id(), tool, r)),
                            e -> result.complete(failure(e)));
            call.onCancel(() -> {
                transport.cancel(token, call.isCancelled() ? "cancelled by the user or the host's timeout" : "");
                sent.dispose();
                result.complete(ToolResult.error(ErrorCode.TOOL_ABORTED, "the call was cancelled"));
            });
        } catch (RuntimeException e) {
            result.complete(failure(e));
        }
        return ended;
    }

    private ToolResult failure(Throwable e) {
        if (e instanceof McpError m) {
            // the server refused the request (unknown tool, invalid params, its own error)
            return ToolResult.error(ErrorCode.TOOL_FAILED, "the MCP server '" + spec.id() + "' answered an error: "
                    + m.getMessage());
        }
        if (dead.get()) {
            return unavailable(deathReason);
        }
        // anything else is the connection failing (a stdio server's death is noticed by its process)
        if (launch == null) {
            died("the connection failed: " + message(e));
            return unavailable(deathReason);
        }
        return ToolResult.error(ErrorCode.TOOL_FAILED, "the call failed: " + message(e));
    }

    private ToolResult unavailable(String why) {
        return ToolResult.error(ErrorCode.MCP_SERVER_UNAVAILABLE, "the MCP server '" + spec.id()
                + "' is not available: " + why);
    }

    /** The calls waiting for this server now. */
    public List<InFlight> inFlight() {
        return List.copyOf(inFlight.values());
    }

    /** Pings a server that has been silent while a call waits; no answer in time ends the connection. */
    void checkHealth() {
        if (dead.get() || inFlight.isEmpty() || System.nanoTime() - transport.lastInbound() < SILENCE_NANOS
                || !pinging.compareAndSet(false, true)) {
            return;
        }
        client.ping().timeout(PING_BOUND).doFinally(s -> pinging.set(false))
                .subscribe(ok -> { }, e -> died("the server stopped answering (no answer to ping within "
                        + PING_BOUND.toSeconds() + " s)"));
    }

    /** Ends the connection once: calls in flight end, the listener is told. */
    void died(String why) {
        if (!dead.compareAndSet(false, true)) {
            return;
        }
        deathReason = why;
        for (InFlight f : inFlight.values()) {
            f.result().complete(unavailable(why));
        }
        listener.died(this, why);
    }

    boolean isDead() {
        return dead.get();
    }

    /** Closes the client and ends the server's process tree (bounded). */
    void close() {
        died("the server was stopped");
        try {
            client.closeGracefully().block(Duration.ofSeconds(3));
        } catch (RuntimeException e) {
            // the tree is ended below anyway
        }
        ProcessHandle w = watchdog();
        if (w != null) {
            // the watchdog ended the server's group on TERM; this catches what left the group or a stuck watchdog
            // the watchdog first, then what it had (docs/security.md, "Stopping a process tree")
            List<ProcessHandle> below = w.descendants().toList();
            w.destroyForcibly();
            below.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The server's process (the watchdog's child), or -1. */
    long pid() {
        ProcessHandle w = watchdog();
        return w == null ? -1 : w.children().findFirst().map(ProcessHandle::pid).orElse(-1L);
    }

    String stderrTail() {
        return stderr.text();
    }

    private static Throwable root(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    static String message(Throwable e) {
        Throwable root = root(e);
        String m = root.getMessage();
        return (m == null ? root.getClass().getSimpleName() : m).replaceAll("\\p{Cntrl}", " ");
    }

    /** A start that did not reach a usable server. */
    static final class StartFailed extends Exception {
        private static final long serialVersionUID = 1L;

        StartFailed(String message) {
            super(message, null, false, false);
        }
    }
}
