package pi.host.plugins.internal;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.util.tracker.BundleTracker;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.ToolSpec;
import pi.host.spi.GrantsUnavailableException;
import pi.host.spi.PluginHost;
import pi.host.spi.PluginInfo;
import pi.host.spi.PluginRuntime;

/**
 * The plugin extender: tracks every bundle carrying the {@code Pi-Plugin} header (installed,
 * starting or active) and hands it to the {@link PluginLifecycle}, on one thread of its own so
 * that the framework's threads never wait for a descriptor check or a plugin's class loading.
 * A granted plugin's tools are registered with this bundle's own context, never the plugin's, so
 * the registry can tell a runtime-registered plugin tool from a bundle's direct registration.
 */
@Component(service = PluginRuntime.class, immediate = true)
public final class PluginExtender implements PluginRuntime {

    /** Service property naming the plugin bundle an adapter belongs to (diagnostics). */
    static final String PLUGIN_BUNDLE = "pi.plugin.bundle";
    private static final long WAIT_SECONDS = 30;
    /** How long an installed, valid plugin may stay unresolved before the runtime resolves it to find out why. */
    static final long RESOLVE_GRACE_SECONDS = 5;

    private final BundleContext context;
    private final PluginLifecycle lifecycle;
    private final ScheduledExecutorService worker;
    private final BundleTracker<Bundle> tracker;
    private volatile List<PluginInfo> snapshot = List.of();

    @Activate
    public PluginExtender(BundleContext context, @Reference PluginHost host) {
        this.context = context;
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "pi-plugins");
            t.setDaemon(true);
            return t;
        });
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // a stopping runtime checks nothing more
        this.worker = executor;
        this.lifecycle = new PluginLifecycle(new PluginHost() {
            @Override
            public boolean granted(String pluginId, String capability) throws GrantsUnavailableException {
                return host.granted(pluginId, capability);
            }

            @Override
            public void pluginsChanged(String pluginId, long bundleId, String state) {
                // a client that hears plugins.changed and asks plugins.list must see the change
                snapshot = List.copyOf(lifecycle.list());
                host.pluginsChanged(pluginId, bundleId, state);
            }
        }, this::register);
        this.tracker = new BundleTracker<>(context, Bundle.INSTALLED | Bundle.STARTING | Bundle.ACTIVE, null) {
            @Override
            public Bundle addingBundle(Bundle bundle, BundleEvent event) {
                if (bundle.getHeaders("").get(PluginInspector.HEADER) == null) {
                    return null;
                }
                submit(() -> arrived(bundle));
                return bundle;
            }

            @Override
            public void modifiedBundle(Bundle bundle, BundleEvent event, Bundle tracked) {
                // STARTING -> ACTIVE changes nothing for a plugin: it has no activator of its own to wait for
            }

            @Override
            public void removedBundle(Bundle bundle, BundleEvent event, Bundle tracked) {
                if (event != null && event.getType() == BundleEvent.RESOLVED) {
                    // INSTALLED -> RESOLVED on its way to STARTING: the record listed while it was installed
                    // stays until the start replaces it, so plugins.list never loses a plugin in between
                    return;
                }
                long id = bundle.getBundleId();
                submit(() -> lifecycle.departed(id));
            }
        };
        tracker.open();
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
        return snapshot;
    }

    @Override
    public void grantsChanged(String pluginId) {
        Future<?> done = submit(() -> lifecycle.grantsChanged(pluginId));
        try {
            done.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            System.getLogger(PluginExtender.class.getName()).log(System.Logger.Level.WARNING,
                    "following the grants of plugin " + pluginId + " failed", e);
        }
    }

    /**
     * A plugin bundle arrived. An installed one that is not resolved yet is not resolved from here
     * (resolving a bundle that another thread is starting makes that start fail on Felix's global
     * lock): if its manifest already breaks the rules it is listed invalid at once; otherwise it is
     * looked at again after {@link #RESOLVE_GRACE_SECONDS}, and only if nobody started it by then is
     * resolution tried, so a bundle that cannot resolve is still reported with why.
     */
    private void arrived(Bundle bundle) {
        if (bundle.getState() != Bundle.INSTALLED) {
            lifecycle.arrived(new BundlePluginSource(bundle, null));
            return;
        }
        BundlePluginSource installed = new BundlePluginSource(bundle, "it is installed only (Import-Package: "
                + bundle.getHeaders("").get("Import-Package") + ")");
        if (!PluginInspector.inspect(installed.manifest(), installed.entries()).valid()) {
            lifecycle.arrived(installed);
            return;
        }
        schedule(() -> {
            if (bundle.getState() != Bundle.INSTALLED) {
                return; // resolved or started meanwhile: the tracker has it (or let it go)
            }
            FrameworkWiring wiring = context.getBundle(0).adapt(FrameworkWiring.class);
            if (!wiring.resolveBundles(List.of(bundle)) && bundle.getState() == Bundle.INSTALLED) {
                lifecycle.arrived(new BundlePluginSource(bundle, "its requirements are not satisfied (Import-Package: "
                        + bundle.getHeaders("").get("Import-Package") + ", Require-Capability: "
                        + bundle.getHeaders("").get("Require-Capability") + ")"));
            }
        });
    }

    private void schedule(Runnable work) {
        try {
            worker.schedule(() -> submit(work), RESOLVE_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    private Future<?> submit(Runnable work) {
        try {
            return worker.submit(() -> {
                try {
                    work.run();
                } catch (RuntimeException | LinkageError e) {
                    System.getLogger(PluginExtender.class.getName()).log(System.Logger.Level.ERROR,
                            "the plugin runtime failed on a bundle change", e);
                } finally {
                    snapshot = List.copyOf(lifecycle.list());
                }
            });
        } catch (RejectedExecutionException e) {
            return java.util.concurrent.CompletableFuture.completedFuture(null); // stopping
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
