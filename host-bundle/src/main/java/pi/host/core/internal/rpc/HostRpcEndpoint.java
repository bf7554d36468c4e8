package pi.host.core.internal.rpc;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.approval.PermissionMethods;
import pi.host.core.internal.audit.AuditMethods;
import pi.host.core.internal.catalog.PromptMethods;
import pi.host.core.internal.control.ControlMethods;
import pi.host.core.internal.delegation.SubagentMethods;
import pi.host.core.internal.background.BackgroundMethods;
import pi.host.core.internal.execute.ToolMethods;
import pi.host.core.internal.images.ImageMethods;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.info.HostMethods;
import pi.host.core.internal.info.StartupGate;
import pi.host.core.internal.mcp.McpMethods;
import pi.host.core.internal.plan.PlanMethods;
import pi.host.core.internal.plugins.PluginMethods;
import pi.host.core.internal.review.ReviewMethods;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.session.SessionMethods;
import pi.host.core.internal.skills.SkillMethods;
import pi.host.core.rpc.RpcConnection;
import pi.host.core.rpc.RpcEndpoint;

/**
 * The host's JSON-RPC endpoint: the method table of PROTOCOL.md, wired explicitly from the
 * components that implement each area, and a shared pool that runs the requests a client does not
 * run on its own thread (those of {@code receive}, and batches).
 */
@Component(service = RpcEndpoint.class)
public final class HostRpcEndpoint implements RpcEndpoint {

    /** The methods answered before the whole host has started (StartupGate): the first answer. */
    static final Set<String> EARLY = Set.of("host.info");
    /** Requests one connection may have running at once; past it the host answers busy (control methods excepted). */
    static final int MAX_IN_FLIGHT = 1024;

    private final HostEvents events;
    private final FirstAnswer firstAnswer;
    private final Map<String, RpcMethod> methods;
    /** The control methods' names (MethodTable#putControl): never refused by the in-flight bound. */
    private final Set<String> control;
    private final ExecutorService pool;

    @Activate
    public HostRpcEndpoint(@Reference HostEvents events, @Reference HostMethods host,
            @Reference SessionMethods sessions, @Reference ToolMethods tools, @Reference PermissionMethods permissions,
            @Reference AuditMethods audit, @Reference PromptMethods prompts, @Reference ControlMethods control,
            @Reference BackgroundMethods background, @Reference ReviewMethods review,
            @Reference PlanMethods plans, @Reference SubagentMethods subagents, @Reference PluginMethods plugins,
            @Reference McpMethods mcp, @Reference SkillMethods skills, @Reference ImageMethods images,
            @Reference FirstAnswer firstAnswer, @Reference StartupGate startup,
            @Reference pi.host.core.internal.worktree.WorktreeMethods worktrees,
            @Reference pi.host.core.internal.visualization.VisualizationMethods visualizations) {
        this.events = events;
        this.firstAnswer = firstAnswer;
        Map<String, RpcMethod> table = new HashMap<>();
        Set<String> controlNames = new HashSet<>();
        MethodTable register = new MethodTable() {
            @Override
            public void put(String name, RpcMethod method) {
                // everything but the first answer waits for the bundles that start after it
                add(name, EARLY.contains(name) ? method : StartedMethods.after(startup, method));
            }

            @Override
            public void putControl(String name, RpcMethod method) {
                // a control method only ends what waits; nothing can wait before the host has started
                add(name, method);
                controlNames.add(name);
            }

            private void add(String name, RpcMethod method) {
                if (table.putIfAbsent(name, method) != null) {
                    throw new IllegalStateException("RPC method registered twice: " + name);
                }
            }
        };
        host.register(register);
        sessions.register(register);
        tools.register(register);
        permissions.register(register);
        audit.register(register);
        review.register(register);
        prompts.register(register);
        control.register(register);
        background.register(register);
        plans.register(register);
        subagents.register(register);
        plugins.register(register);
        mcp.register(register);
        worktrees.register(register);
        visualizations.register(register);
        skills.register(register);
        images.register(register);
        this.methods = Collections.unmodifiableMap(table);
        this.control = Set.copyOf(controlNames);
        this.pool = Executors.newCachedThreadPool(daemonThreads("pi-rpc-"));
        // Jackson builds its serializers on first use; building the ones of the first answer now, on
        // another thread, takes that cost off the client's first request
        pool.execute(() -> Json.mapper().valueToTree(host.info()));
    }

    @Deactivate
    private void deactivate() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    @Override
    public RpcConnection connect(Consumer<String> out) {
        AutoCloseable[] subscription = new AutoCloseable[1];
        JsonRpcConnection connection = new JsonRpcConnection(methods, control, pool, answers(out), MAX_IN_FLIGHT, () -> {
            try {
                subscription[0].close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        subscription[0] = events.subscribe(connection::notify);
        return connection;
    }

    /**
     * {@code out}, telling {@link FirstAnswer} about the first answer it carries. An answer is a batch
     * (an array) or an object whose second member is {@code id} (the mapper writes {@code jsonrpc} first,
     * then {@code id} for answers, {@code method} for notifications); after the first one this is one
     * volatile read per line. A {@link BufferedSink} stays one, so an {@link OutputBatch} can hold its lines.
     */
    private Consumer<String> answers(Consumer<String> out) {
        if (out instanceof BufferedSink) {
            BufferedSink sink = (BufferedSink) out;
            return new BufferedSink() {
                @Override
                public void write(String line) {
                    sink.write(line);
                    answered(line);
                }

                @Override
                public void flush() {
                    sink.flush();
                }
            };
        }
        return line -> {
            out.accept(line);
            answered(line);
        };
    }

    private void answered(String line) {
        if (line.startsWith("[") || line.startsWith("{\"jsonrpc\":\"2.0\",\"id\"")) {
            firstAnswer.answered();
        }
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
