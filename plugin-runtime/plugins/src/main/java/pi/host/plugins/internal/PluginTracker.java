package pi.host.plugins.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.util.tracker.BundleTracker;
import pi.host.plugins.check.PluginInspector;

/**
 * Follows every bundle with the {@code Pi-Plugin} header from its install to its uninstall and tells
 * the {@link PluginLifecycle} when one arrives (or gets new content) and when it leaves; being started
 * or stopped by someone changes nothing for a plugin. The tracker's callbacks come on framework threads;
 * all the work goes to the runtime's worker ({@code submit}), where everything but the callbacks runs.
 */
final class PluginTracker extends BundleTracker<Bundle> {

    /** How long an installed, valid plugin may stay unresolved before the runtime resolves it to find out why. */
    static final long RESOLVE_GRACE_SECONDS = 5;
    private static final int UNTIL_UNINSTALLED = Bundle.INSTALLED | Bundle.RESOLVED | Bundle.STARTING
            | Bundle.ACTIVE | Bundle.STOPPING;

    private final BundleContext context;
    private final PluginLifecycle lifecycle;
    private final DropInFolder folder;
    private final Consumer<Runnable> submit;
    private final Consumer<Runnable> later;
    /** Valid plugin bundles installed by others, waiting to be resolved (worker thread only). */
    private final Set<Long> pending = new HashSet<>();

    /**
     * @param folder the drop-in folder, or null
     * @param submit runs work on the worker
     * @param later runs work on the worker after {@link #RESOLVE_GRACE_SECONDS}
     */
    PluginTracker(BundleContext context, PluginLifecycle lifecycle, DropInFolder folder, Consumer<Runnable> submit,
            Consumer<Runnable> later) {
        super(context, UNTIL_UNINSTALLED, null);
        this.context = context;
        this.lifecycle = lifecycle;
        this.folder = folder;
        this.submit = submit;
        this.later = later;
    }

    @Override
    public Bundle addingBundle(Bundle bundle, BundleEvent event) {
        if (bundle.getHeaders("").get(PluginInspector.HEADER) == null) {
            return null;
        }
        submit.accept(() -> arrived(bundle));
        return bundle;
    }

    @Override
    public void modifiedBundle(Bundle bundle, BundleEvent event, Bundle tracked) {
        // being started or stopped changes nothing for a plugin; new content (an update) does: the tools
        // of the old content go at once (their classes are the old revision's), the new content is then
        // looked at like an arrival (which may wait for it to resolve)
        if (event != null && event.getType() == BundleEvent.UPDATED) {
            submit.accept(() -> {
                lifecycle.departed(bundle.getBundleId());
                arrived(bundle);
            });
        } else if (event != null && event.getType() == BundleEvent.RESOLVED) {
            submit.accept(() -> resolved(bundle));
        }
    }

    @Override
    public void removedBundle(Bundle bundle, BundleEvent event, Bundle tracked) {
        long id = bundle.getBundleId();
        submit.accept(() -> {
            pending.remove(id);
            lifecycle.departed(id);
        });
    }

    /**
     * A plugin bundle arrived (or changed content). One the folder installed was resolved by it at
     * once, so if it is still only installed it cannot resolve. One installed by others is not resolved
     * from here at once (resolving a bundle that another thread is starting makes that start fail on
     * Felix's global lock): if its manifest already breaks the rules it is listed invalid at once;
     * otherwise it waits ({@link #pending}) until it resolves, or for {@link #RESOLVE_GRACE_SECONDS},
     * after which resolution is tried, so a bundle that cannot resolve is still reported with why.
     */
    private void arrived(Bundle bundle) {
        long id = bundle.getBundleId();
        pending.remove(id);
        String file = folder == null ? null : folder.fileOf(id);
        if (bundle.getState() != Bundle.INSTALLED) {
            lifecycle.arrived(new BundlePluginSource(bundle, null, file));
            return;
        }
        if (file != null) {
            lifecycle.arrived(new BundlePluginSource(bundle, unsatisfied(bundle), file));
            return;
        }
        BundlePluginSource installed = new BundlePluginSource(bundle, "it is installed only (Import-Package: "
                + bundle.getHeaders("").get("Import-Package") + ")", null);
        if (!PluginInspector.inspect(installed.manifest(), installed.entries()).valid()) {
            lifecycle.arrived(installed);
            return;
        }
        pending.add(id);
        later.accept(() -> {
            if (!pending.contains(id)) {
                return; // resolved meanwhile (and looked at), or gone
            }
            if (bundle.getState() == Bundle.INSTALLED
                    && !context.getBundle(0).adapt(FrameworkWiring.class).resolveBundles(List.of(bundle))
                    && bundle.getState() == Bundle.INSTALLED) {
                pending.remove(id);
                lifecycle.arrived(new BundlePluginSource(bundle, unsatisfied(bundle), null));
                return;
            }
            arrived(bundle);
        });
    }

    /** A tracked bundle resolved: one waiting for that is looked at now. */
    private void resolved(Bundle bundle) {
        if (pending.contains(bundle.getBundleId())) {
            arrived(bundle);
        }
    }

    private static String unsatisfied(Bundle bundle) {
        return "its requirements are not satisfied or the host's wiring guard refused it (Import-Package: "
                + bundle.getHeaders("").get("Import-Package") + ", Require-Capability: "
                + bundle.getHeaders("").get("Require-Capability") + "; plugins.list refusedBundles names a refusal)";
    }
}
