package pi.host.plugins.internal;

import java.nio.file.Path;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.hooks.resolver.ResolverHookFactory;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;
import pi.host.plugins.check.ToolSpec;
import pi.host.spi.GrantsUnavailableException;
import pi.host.spi.PluginHost;
import pi.host.spi.PluginInfo;
import pi.host.spi.PluginRuntime;

/**
 * The plugin extender: follows every bundle carrying the {@code Pi-Plugin} header ({@link PluginTracker},
 * until it is uninstalled) and hands it to the {@link PluginLifecycle}, on one thread of its own so
 * that the framework's threads never wait for a descriptor check or a plugin's class loading. It also
 * keeps the drop-in folder ({@link DropInFolder}, the framework property {@value #PLUGINS_DIR}): jars
 * are checked before they are installed, and no plugin bundle is ever started, by anyone here.
 * A granted plugin's tools are registered with this bundle's own context, never the plugin's, so
 * the registry can tell a runtime-registered plugin tool from a bundle's direct registration.
 *
 * <p>It activates only once the host's wiring guard (a resolver hook) is registered, so no drop-in is
 * installed into a framework that would let it rewire the host; and {@link #plugins()} answers only
 * once the jars present at start are listed.
 */
@Component(service = PluginRuntime.class, immediate = true)
public final class PluginExtender implements PluginRuntime {

    /** Service property naming the plugin bundle an adapter belongs to (diagnostics). */
    static final String PLUGIN_BUNDLE = "pi.plugin.bundle";
    /** Framework property: the drop-in folder (the launcher sets {@code <data_dir>/plugins}). */
    static final String PLUGINS_DIR = "pi.host.plugins.dir";
    /** Framework property: milliseconds between two looks at the drop-in folder. */
    static final String PLUGINS_POLL = "pi.host.plugins.poll";
    private static final long WAIT_SECONDS = 30;

    private final BundleContext context;
    private final PluginLifecycle lifecycle;
    private final ScheduledExecutorService worker;
    private final PluginTracker tracker;
    private final DropInFolder folder;
    /** Done once the bundles and drop-ins present at activation are all looked at. */
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private volatile List<PluginInfo> snapshot = List.of();

    @Activate
    public PluginExtender(BundleContext context, @Reference PluginHost host,
            @Reference(target = "(pi.host.guard=wiring)") ResolverHookFactory wiringGuard) {
        this.context = context;
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "pi-plugins");
            t.setDaemon(true);
            return t;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // a stopping runtime checks nothing more
        this.worker = executor;
        PluginHost announcing = new PluginHost() {
            @Override
            public boolean granted(String pluginId, String capability) throws GrantsUnavailableException {
                return host.granted(pluginId, capability);
            }

            @Override
            public void pluginsChanged(String pluginId, long bundleId, String state) {
                // a client that hears plugins.changed and asks plugins.list must see the change
                snapshot = list();
                host.pluginsChanged(pluginId, bundleId, state);
            }
        };
        this.lifecycle = new PluginLifecycle(announcing, this::register);
        this.folder = folder(context, announcing);
        if (folder != null) {
            folder.reset(); // before the tracker opens, so the bundles of an earlier run never show
        }
        this.tracker = new PluginTracker(context, lifecycle, folder, this::submitQuietly, this::schedule);
        tracker.open();
        submit(() -> {
            try {
                if (folder != null) {
                    folder.scan();
                }
            } finally {
                submit(() -> ready.complete(null)); // after the arrivals the scan queued
            }
        });
        if (folder != null) {
            long poll = pollMillis(context);
            worker.scheduleWithFixedDelay(() -> run(folder::scan), poll, poll, TimeUnit.MILLISECONDS);
        }
    }

    private static DropInFolder folder(BundleContext context, PluginHost host) {
        String dir = context.getProperty(PLUGINS_DIR);
        if (dir == null || dir.isBlank()) {
            return null;
        }
        return new DropInFolder(Path.of(dir), context.getDataFile("staging").toPath(), context, id -> {
            try {
                return host.granted(id, PluginHost.TOOL_REGISTER);
            } catch (GrantsUnavailableException e) {
                return false;
            }
        }, (id, state) -> host.pluginsChanged(id, -1, state));
    }

    private static long pollMillis(BundleContext context) {
        try {
            return Math.max(50, Long.parseLong(String.valueOf(context.getProperty(PLUGINS_POLL))));
        } catch (NumberFormatException e) {
            return 1000;
        }
    }

    private List<PluginInfo> list() {
        List<PluginInfo> all = new java.util.ArrayList<>(lifecycle.list());
        if (folder != null) {
            all.addAll(folder.refused());
        }
        return List.copyOf(all);
    }

    @Deactivate
    private void deactivate() throws InterruptedException {
        tracker.close();
        submit(lifecycle::closeAll);
        worker.shutdown();
        worker.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public List<PluginInfo> plugins() {
        try {
            ready.get(WAIT_SECONDS, TimeUnit.SECONDS); // the first answer already has what was there at start
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            System.getLogger(PluginExtender.class.getName()).log(System.Logger.Level.WARNING,
                    "the plugins present at start are not all looked at yet", e);
        }
        return snapshot;
    }

    @Override
    public void grantsChanged(String pluginId) {
        Future<?> done = submit(() -> {
            lifecycle.grantsChanged(pluginId);
            if (folder != null) {
                folder.grantsChanged(pluginId);
            }
        });
        try {
            done.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            System.getLogger(PluginExtender.class.getName()).log(System.Logger.Level.WARNING,
                    "following the grants of plugin " + pluginId + " failed", e);
        }
    }

    private void schedule(Runnable work) {
        try {
            worker.schedule(() -> submit(work), PluginTracker.RESOLVE_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    private void submitQuietly(Runnable work) {
        submit(work);
    }

    private Future<?> submit(Runnable work) {
        try {
            return worker.submit(() -> run(work));
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(null); // stopping
        }
    }

    /** Runs one change on the worker; nothing a bundle or a jar does stops the worker. */
    private void run(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException | LinkageError e) {
            System.getLogger(PluginExtender.class.getName()).log(System.Logger.Level.ERROR,
                    "the plugin runtime failed on a bundle change", e);
        } finally {
            snapshot = list();
        }
    }

    private Registrar.Registration register(String pluginId, ToolSpec spec, ToolProvider provider) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Tool.NAME, spec.name());
        properties.put("pi.plugin.id", pluginId);
        if (spec.riskDeclared()) {
            properties.put(Tool.RISK, spec.risk()); // none declared: the registry applies medium and knows why
        }
        properties.put(Tool.ACTIONS, spec.actions().toArray(String[]::new));
        properties.put(Tool.PLAN_SAFE_ACTIONS, spec.planSafeActions().toArray(String[]::new));
        properties.put(Tool.DEFERRED, Boolean.TRUE);
        properties.put(Tool.SUMMARY, spec.summary());
        properties.put(Tool.TIMEOUT_MS, spec.timeoutMs());
        ServiceRegistration<ToolProvider> registration = context.registerService(ToolProvider.class, provider,
                properties);
        return () -> {
            try {
                registration.unregister();
            } catch (IllegalStateException alreadyGone) {
                // unregistered when this bundle stopped
            }
        };
    }
}
