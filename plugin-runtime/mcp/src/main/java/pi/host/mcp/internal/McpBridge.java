package pi.host.mcp.internal;

import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import pi.host.mcp.internal.config.ConfigWatcher;
import pi.host.mcp.internal.config.McpConfig;
import pi.host.mcp.internal.config.ServerSpec;
import pi.host.mcp.internal.elicit.ElicitationRoute;
import pi.host.mcp.internal.server.McpServer;
import pi.host.mcp.internal.server.ServerContext;
import pi.host.mcp.internal.server.ServerTimers;
import pi.host.mcp.internal.server.StdioLaunch;
import pi.host.mcp.internal.server.TimerFloor;
import pi.host.mcp.internal.tools.ToolRegistrations;
import pi.host.spi.LoginShellPath;
import pi.host.spi.McpHost;
import pi.host.spi.McpRuntime;
import pi.host.spi.McpServerInfo;

/**
 * The MCP bridge: {@code <data_dir>/mcp.json} → one {@link McpServer} per valid entry → their tools as
 * {@code ToolProvider} services. Servers start in the background once the host answered its first
 * request; changes to the file start, stop and restart exactly the servers whose entries changed. A
 * broken file or entry is reported in {@code mcp.list} and stops nothing else.
 */
@Component(service = McpRuntime.class, immediate = true)
public final class McpBridge implements McpRuntime {

    /** The framework property naming the data dir (set by the launcher). */
    static final String DATA_DIR = "pi.host.data";
    /** How long stopping all servers may take at shutdown. */
    static final long STOP_BOUND_MS = 5_000;

    private final McpHost host;
    private final Path file;
    private final Path home = Path.of(System.getProperty("user.home"));
    private final ExecutorService work;
    private final ScheduledExecutorService timers;
    private final ServerContext context;
    private final ToolRegistrations registrations;
    private final ConfigWatcher watcher;
    private final Map<String, McpServer> servers = new LinkedHashMap<>();
    private List<McpConfig.Problem> problems = List.of();
    private boolean started;
    /** What the last {@code mcp.changed} said (guarded by this); none configured to begin with. */
    private List<McpServerInfo> published = List.of();
    private boolean closed;
    /** The health check and the timer floor, started with the first configured server. */
    private final ServerTimers serverTimers;

    private volatile LoginShellPath loginShell;

    /**
     * @param jsonDefaults unused but required: the SDK's default mapper and schema validator are bound
     *     through this DS component, so the bridge waits for it before it builds clients
     */
    @Activate
    public McpBridge(BundleContext bundle, @Reference McpHost host, @Reference McpJsonDefaults jsonDefaults) {
        this.host = host;
        String data = bundle.getProperty(DATA_DIR);
        this.file = (data != null ? Path.of(data) : bundle.getDataFile("").toPath()).resolve(McpConfig.FILE);
        this.work = Executors.newCachedThreadPool(daemons("pi-mcp-"));
        this.timers = Executors.newSingleThreadScheduledExecutor(daemons("pi-mcp-timer-"));
        this.context = new ServerContext(McpJsonDefaults.getMapper(), McpJsonDefaults.getSchemaValidator(),
                new StdioLaunch(), this::loginPath, work, timers, new ElicitationRoute(() -> host));
        this.registrations = new ToolRegistrations(bundle);
        this.watcher = new ConfigWatcher(file, this::reload);
        this.serverTimers = new ServerTimers(timers, TimerFloor::start, this::checkHealth);
        reload(); // parsed now, so mcp.list shows the configuration at once; nothing starts yet
        host.afterFirstAnswer(this::startAll);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindLoginShell(LoginShellPath p) {
        loginShell = p;
    }

    void unbindLoginShell(LoginShellPath p) {
        if (loginShell == p) {
            loginShell = null;
        }
    }

    private Optional<String> loginPath() {
        LoginShellPath p = loginShell;
        return p == null ? Optional.empty() : p.path();
    }

    private void startAll() {
        synchronized (this) {
            if (closed || started) {
                return;
            }
            started = true;
            servers.values().forEach(McpServer::start);
            // under the lock: a host that stops right after its first answer (the bridge starts after it)
            // closes the watcher and the timers only after this, never before
            watcher.start();
            if (!servers.isEmpty()) {
                serverTimers.serverConfigured();
            }
        }
        changed();
    }

    /** Reads the file again and starts, stops or replaces the servers whose entries changed. */
    void reload() {
        McpConfig.Parsed parsed = McpConfig.read(file, home);
        List<McpServer> stop = new ArrayList<>();
        List<McpServer> start = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            problems = parsed.problems();
            if (parsed.readable()) {
                Map<String, ServerSpec> wanted = new LinkedHashMap<>();
                parsed.servers().forEach(s -> wanted.put(s.id(), s));
                servers.entrySet().removeIf(e -> {
                    if (e.getValue().spec().equals(wanted.get(e.getKey()))) {
                        return false;
                    }
                    stop.add(e.getValue());
                    return true;
                });
                for (ServerSpec spec : wanted.values()) {
                    if (!servers.containsKey(spec.id())) {
                        McpServer s = new McpServer(spec, context, registrations, this::changed);
                        servers.put(spec.id(), s);
                        if (started) {
                            start.add(s);
                        }
                    }
                }
                if (started && !servers.isEmpty()) {
                    serverTimers.serverConfigured();
                }
            }
            // an unreadable file (a half-saved edit) keeps what runs; mcp.list says why the file was not taken
        }
        // the replaced servers' tools go before their replacements register the same names
        stop.forEach(McpServer::stop);
        start.forEach(McpServer::start);
        changed();
    }

    private void checkHealth() {
        List<McpServer> now;
        synchronized (this) {
            now = List.copyOf(servers.values());
        }
        now.forEach(McpServer::checkHealth);
    }

    /**
     * Publishes {@code mcp.changed} when what {@code mcp.list} shows differs from what was last published:
     * a reload that changed nothing (or no mcp.json at all at start) is no news.
     */
    private void changed() {
        if (!started) {
            return;
        }
        List<McpServerInfo> now = servers();
        synchronized (this) {
            if (now.equals(published)) {
                return;
            }
            published = now;
        }
        host.serversChanged(now);
    }

    @Override
    public List<McpServerInfo> servers() {
        List<McpServerInfo> out = new ArrayList<>();
        List<McpServer> now;
        List<McpConfig.Problem> bad;
        boolean running;
        synchronized (this) {
            now = List.copyOf(servers.values());
            bad = problems;
            running = started;
        }
        for (McpServer s : now) {
            McpServerInfo info = s.info();
            // configured, waiting for the host's first answer
            out.add(!running && "stopped".equals(info.state()) ? new McpServerInfo(info.id(), info.transport(),
                    "starting", null, "", -1, List.of()) : info);
        }
        for (McpConfig.Problem p : bad) {
            if (p.id() != null && out.stream().noneMatch(i -> i.id().equals(p.id()))) {
                out.add(new McpServerInfo(p.id(), p.transport(), "failed", p.message(), "", -1, List.of()));
            }
        }
        out.sort(Comparator.comparing(McpServerInfo::id));
        for (McpConfig.Problem p : bad) {
            if (p.id() == null) {
                out.add(0, new McpServerInfo(McpConfig.FILE, null, "failed", p.message(), "", -1, List.of()));
            }
        }
        return out;
    }

    @Deactivate
    private void deactivate() {
        List<McpServer> all;
        synchronized (this) {
            closed = true;
            all = List.copyOf(servers.values());
            servers.clear();
        }
        watcher.close();
        CompletableFuture<?>[] stops = all.stream().map(McpServer::stop).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(stops).get(STOP_BOUND_MS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            System.getLogger(McpBridge.class.getName()).log(System.Logger.Level.WARNING,
                    "not every MCP server stopped within " + STOP_BOUND_MS + " ms: " + e);
        }
        serverTimers.close();
        timers.shutdownNow();
        work.shutdownNow();
    }

    private static java.util.concurrent.ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
