package pi.host.core.internal.store;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The core bundle's activator: starts opening the host's database when the bundle starts, before SCR
 * creates any of the bundle's components, and hands it to {@link StoreComponent} when that activates.
 *
 * <p>Why: opening (SQLite's native library, the connections, the migrations) takes ~250 ms on its own
 * thread, and the start's one thread (FelixStartLevel) waited ~100 ms of it in every start, in the first
 * component that reads a table (PlanStore's interrupted plans), when the open began only with
 * StoreComponent, a third of the way through the core's activation (docs/performance-log.md, branch
 * start15). Begun here it runs beside the components before StoreComponent.
 *
 * <p>Nothing else changes: the same file, the same open on the same kind of thread, every call that needs
 * the database still waits for it (so {@code host.info}'s {@code schemaVersion} is still the opened file's),
 * and a database StoreComponent does not take (the bundle stops first, or the store activates a second
 * time) is closed or not used: StoreComponent then opens its own, as before.
 */
public final class EarlyOpen implements BundleActivator {

    private static Early pending;

    /** An open begun early; its checkpoints wait for the supplier StoreComponent gives it on taking it. */
    private record Early(Path file, Database database, Deferred paused) {
    }

    /** Whether the tool calls pause, once someone can say: until then, never (checkpoints wait, bounded). */
    private static final class Deferred implements BooleanSupplier {
        private volatile BooleanSupplier target = () -> false;

        @Override
        public boolean getAsBoolean() {
            return target.getAsBoolean();
        }
    }

    @Override
    public void start(BundleContext context) {
        Path file = StoreComponent.databaseFile(context);
        Deferred paused = new Deferred();
        Early early = new Early(file, Database.openInBackground(file, paused), paused);
        synchronized (EarlyOpen.class) {
            pending = early;
        }
    }

    @Override
    public void stop(BundleContext context) {
        Early left;
        synchronized (EarlyOpen.class) {
            left = pending;
            pending = null;
        }
        if (left != null) {
            left.database().close(); // never taken: StoreComponent did not activate in this bundle start
        }
    }

    /**
     * The database of {@code file} begun at the bundle's start, now owned by the caller (its checkpoints
     * asking {@code callsPaused} from now on), or one opened now in the background when there is none for
     * that file (taken already, or the bundle started without this activator: tests).
     */
    static Database take(Path file, BooleanSupplier callsPaused) {
        Early early;
        synchronized (EarlyOpen.class) {
            early = pending;
            if (early != null && early.file().equals(file)) {
                pending = null;
            } else {
                early = null;
            }
        }
        if (early == null) {
            return Database.openInBackground(file, callsPaused);
        }
        early.paused().target = callsPaused;
        return early.database();
    }
}
