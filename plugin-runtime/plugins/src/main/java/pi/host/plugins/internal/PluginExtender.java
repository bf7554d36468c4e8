package pi.host.plugins.internal;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

    private final BundleContext context;
    private final PluginLifecycle lifecycle;
    private final ExecutorService worker;
    private final BundleTracker<Bundle> tracker;
    private volatile List<PluginInfo> snapshot = List.of();

    @Activate
    public PluginExtender(BundleContext context, @Reference PluginHost host) {
        this.context = context;
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "pi-plugins");
            t.setDaemon(true);
            return t;
        });
        this.lifecycle = new PluginLifecycle(host, this::register);
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
     * An installed (not yet resolved) plugin: resolving it now tells a plugin that cannot resolve
     * (reported invalid, with why) from one that merely was not started yet (it comes back when it starts).
     */
    private void arrived(Bundle bundle) {
        String unresolved = null;
        if (bundle.getState() == Bundle.INSTALLED) {
            FrameworkWiring wiring = context.getBundle(0).adapt(FrameworkWiring.class);
            if (wiring.resolveBundles(List.of(bundle))) {
                return; // resolved: RESOLVED is outside the tracker's mask; it returns when started
            }
            if (bundle.getState() == Bundle.UNINSTALLED) {
                return;
            }
            unresolved = "its requirements are not satisfied (Import-Package: "
                    + bundle.getHeaders("").get("Import-Package") + ")";
        }
        lifecycle.arrived(new BundlePluginSource(bundle, unresolved));
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
