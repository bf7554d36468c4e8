package pi.host.mcp.internal.server;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import pi.host.api.ErrorCode;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.mcp.internal.config.ServerSpec;
import pi.host.mcp.internal.tools.ToolDefinition;
import pi.host.spi.McpServerInfo;

/**
 * One configured server over its life: started in the background, its tools offered through the
 * {@link ToolSink}, restarted with backoff when it dies (its tools stay and answer
 * {@code MCP_SERVER_UNAVAILABLE} meanwhile), given up after {@link #MAX_ATTEMPTS} starts in a row that did
 * not last, and stopped for good when its entry goes away.
 */
public final class McpServer implements Connection.Listener {

    /** Most tools offered per server; a server that lists more is told so in {@code mcp.list}. */
    public static final int MAX_TOOLS = 256;
    /** Starts in a row that may fail (or not last {@link #STABLE_MS}) before the bridge gives up. */
    static final int MAX_ATTEMPTS = 5;
    /** A server that ran this long counts as healthy again: its next failure starts the backoff anew. */
    static final long STABLE_MS = 60_000;
    static final long MAX_BACKOFF_MS = 30_000;

    /** Where a server's tools go (the OSGi service registrations). */
    public interface ToolSink {
        void offer(McpServer server, List<ToolDefinition> tools);

        void withdraw(McpServer server);
    }

    private final ServerSpec spec;
    private final ServerContext context;
    private final ToolSink sink;
    private final Runnable changed;

    private String state;
    private String error;
    private String toolsWarning;
    private Connection connection;
    private Connection failedOnce;
    private int attempts;
    private long readySince;
    private boolean stopped;
    private ScheduledFuture<?> restart;
    private String lastStderr = "";
    private List<String> offered = List.of();

    public McpServer(ServerSpec spec, ServerContext context, ToolSink sink, Runnable changed) {
        this.spec = spec;
        this.context = context;
        this.sink = sink;
        this.changed = changed;
        this.state = spec.disabled() ? "disabled" : "stopped";
    }

    public ServerSpec spec() {
        return spec;
    }

    public String id() {
        return spec.id();
    }

    /** Starts the server in the background (a disabled one stays disabled). */
    public synchronized void start() {
        if (spec.disabled() || stopped) {
            return;
        }
        state = "starting";
        context.work().execute(this::connect);
    }

    private void connect() {
        Connection c;
        synchronized (this) {
            if (stopped) {
                return;
            }
            attempts++;
            c = new Connection(spec, context, this);
            connection = c;
        }
        changed.run();
        List<McpSchema.Tool> tools;
        try {
            tools = c.start();
        } catch (Connection.StartFailed | RuntimeException e) {
            String why = e instanceof Connection.StartFailed ? e.getMessage() : "the start failed: " + e;
            failed(c, why); // closes c
            return;
        }
        offer(tools); // before "ready": a client that sees the state sees the tools
        synchronized (this) {
            if (stopped || connection != c || c.isDead()) {
                return; // stopped meanwhile (closed by stop) or died meanwhile (failed() took over)
            }
            state = "ready";
            error = null;
            readySince = System.currentTimeMillis();
        }
        changed.run();
    }

    /** Offers {@code tools} (bounded, the unusable ones left out with the reason in {@code error}). */
    private void offer(List<McpSchema.Tool> tools) {
        List<ToolDefinition> defs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (McpSchema.Tool t : tools) {
            if (defs.size() == MAX_TOOLS) {
                problems.add("the server lists " + tools.size() + " tools; only the first " + MAX_TOOLS
                        + " are offered");
                break;
            }
            try {
                defs.add(ToolDefinition.of(t));
            } catch (IllegalArgumentException e) {
                problems.add("tool '" + t.name() + "' is not offered: " + e.getMessage());
            }
        }
        synchronized (this) {
            if (stopped) {
                return;
            }
            toolsWarning = problems.isEmpty() ? null : String.join("; ", problems);
            offered = defs.stream().map(ToolDefinition::name).toList();
        }
        sink.offer(this, defs);
        changed.run();
    }

    @Override
    public void toolsChanged(Connection c) {
        // the SDK's own list is unbounded: read it again with the bridge's bounds, off the SDK's thread
        context.work().execute(() -> {
            synchronized (this) {
                if (c.isDead() || connection != c) {
                    return;
                }
            }
            try {
                offer(c.tools());
            } catch (Connection.StartFailed e) {
                c.died(e.getMessage());
            }
        });
    }

    @Override
    public void died(Connection c, String why) {
        failed(c, why);
    }

    private void failed(Connection c, String why) {
        long delay;
        synchronized (this) {
            if (stopped || connection != c || failedOnce == c) {
                return; // a death and a failed start of the same connection are one failure
            }
            failedOnce = c;
            lastStderr = c.stderrTail();
            if (readySince > 0 && System.currentTimeMillis() - readySince >= STABLE_MS) {
                attempts = 1; // it ran long enough: this failure starts the backoff anew
            }
            readySince = 0;
            state = "failed";
            if (attempts >= MAX_ATTEMPTS) {
                error = why + "; gave up after " + attempts + " attempts (fix the server or edit mcp.json to retry)";
                delay = -1;
            } else {
                delay = Math.min(MAX_BACKOFF_MS, 1000L << (attempts - 1));
                error = why + "; restarting in " + (delay / 1000) + " s (attempt " + (attempts + 1) + " of "
                        + MAX_ATTEMPTS + ")";
                restart = context.timers().schedule(() -> context.work().execute(this::connect), delay,
                        TimeUnit.MILLISECONDS);
            }
        }
        context.work().execute(c::close); // the tree goes, whatever is left of it
        changed.run();
    }

    /**
     * Stops the server for good (its entry was removed or changed, or the bridge stops): its tools are
     * withdrawn before this returns, so a replacement can register the same names; the process tree ends
     * on a thread of the bridge (the returned future, bounded by the connection's close).
     */
    public CompletableFuture<Void> stop() {
        Connection c;
        synchronized (this) {
            stopped = true;
            if (restart != null) {
                restart.cancel(false);
            }
            c = connection;
            connection = null;
            state = spec.disabled() ? "disabled" : "stopped";
            error = null;
        }
        sink.withdraw(this);
        return c == null ? CompletableFuture.completedFuture(null) : CompletableFuture.runAsync(c::close, context.work());
    }

    /** Runs one call of the tool {@code tool} (the server's own name). */
    public CompletableFuture<ToolResult> call(String tool, Map<String, Object> arguments, ToolCall call) {
        Connection c;
        String why;
        synchronized (this) {
            c = "ready".equals(state) ? connection : null;
            why = state + (error == null ? "" : ": " + error);
        }
        if (c == null) {
            return CompletableFuture.completedFuture(ToolResult.error(ErrorCode.MCP_SERVER_UNAVAILABLE,
                    "the MCP server '" + spec.id() + "' is not available (" + why + ")"));
        }
        return c.call(tool, arguments, call);
    }

    /** Pings the server if a call waits on it and it has been silent (see {@link Connection#checkHealth}). */
    public void checkHealth() {
        Connection c;
        synchronized (this) {
            c = connection;
        }
        if (c != null) {
            c.checkHealth();
        }
    }

    /** The record {@code mcp.list} shows. */
    public synchronized McpServerInfo info() {
        Connection c = connection;
        String stderr = c != null && "ready".equals(state) || c != null && "starting".equals(state)
                ? c.stderrTail() : lastStderr;
        String shown = error != null ? error : toolsWarning;
        return new McpServerInfo(spec.id(), spec.transport().wire(), state, shown, stderr,
                c == null || !"ready".equals(state) ? -1 : c.pid(), offered);
    }
}
