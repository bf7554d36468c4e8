package pi.host.core.internal.info;

import java.util.concurrent.CountDownLatch;
import java.util.function.IntSupplier;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Whether the whole host has started. The launcher starts the bundles the first answer needs at start
 * level 1 and the rest (the builtin tools, the plugin runtime, the MCP bridge, ...) at the level it names
 * in the framework property {@value #READY_LEVEL}, right after the first level is up (docs/performance-log.md).
 * Until that level is reached the host answers only {@code host.info} and the control methods; every
 * other request waits here, so a call that needs a tool of a later bundle waits for it and never fails
 * for it. Without the property (in-container tests, a framework started all at once) it is ready at once.
 */
@Component(service = StartupGate.class)
public final class StartupGate {

    /** Framework property: the start level at which every bundle of the distribution is started. */
    public static final String READY_LEVEL = "pi.host.readyLevel";

    private final CountDownLatch ready = new CountDownLatch(1);
    private final BundleContext context;
    private final IntSupplier level;
    private final int readyLevel;
    private final FrameworkListener listener = this::changed;
    private volatile boolean stopping;

    @Activate
    public StartupGate(BundleContext context) {
        this(context, () -> context.getBundle(0).adapt(FrameworkStartLevel.class).getStartLevel(),
                readyLevel(context.getProperty(READY_LEVEL)));
        context.addFrameworkListener(listener);
        levelChanged();
    }

    /** A gate on {@code level} that opens at {@code readyLevel} (0: open at once); for tests. */
    StartupGate(BundleContext context, IntSupplier level, int readyLevel) {
        this.context = context;
        this.level = level;
        this.readyLevel = readyLevel;
    }

    /** For tests that run without a framework: ready from the start. */
    public static StartupGate open() {
        StartupGate gate = new StartupGate(null, () -> 0, 0);
        gate.levelChanged();
        return gate;
    }

    private static int readyLevel(String configured) {
        return configured == null || configured.isBlank() ? 0 : Integer.parseInt(configured.strip());
    }

    @Deactivate
    void deactivate() {
        if (context != null) {
            context.removeFrameworkListener(listener);
        }
        stopping = true;
        ready.countDown(); // nothing waits on a host that stops; the caller sees stopping()
    }

    /**
     * Only STARTLEVEL_CHANGED, which comes once every bundle up to the new level has started. The
     * framework's level itself is no sign: Felix raises it when it begins to start a level's bundles, and
     * framework events arrive asynchronously (a STARTED event read the level 2 of a start still under way,
     * and a call found no builtin tool).
     */
    private void changed(FrameworkEvent event) {
        if (event.getType() == FrameworkEvent.STARTLEVEL_CHANGED) {
            levelChanged();
        }
    }

    /** Opens the gate when the framework has reached the ready level. */
    void levelChanged() {
        if (ready.getCount() > 0 && (readyLevel <= 0 || level.getAsInt() >= readyLevel)) {
            ready.countDown();
        }
    }

    /** True once every bundle has started (or the host is stopping). */
    public boolean ready() {
        return ready.getCount() == 0;
    }

    /** True when the gate was opened because the host stops, not because it started. */
    public boolean stopping() {
        return stopping;
    }

    /** Waits until the host has started or is stopping. */
    public void await() throws InterruptedException {
        ready.await();
    }
}
