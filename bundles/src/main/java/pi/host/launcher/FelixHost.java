package pi.host.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.osgi.framework.wiring.BundleRevision;

/**
 * Runs the host: an embedded Felix with its bundle cache under the data dir (so a second start
 * only checks the cache), the explicit bundle set installed or updated, every bundle started.
 * Returns when the framework has stopped (host.shutdown, end of input, or SIGTERM).
 */
final class FelixHost {

    private static final long STOP_WAIT_MILLIS = 20_000;
    /** Framework property: the drop-in folder the plugin runtime watches. */
    static final String PLUGINS_DIR = "pi.host.plugins.dir";
    /** Framework property: how often (ms) the plugin runtime looks at the drop-in folder. */
    static final String PLUGINS_POLL = "pi.host.plugins.poll";
    /** Framework property: the start level at which the whole host has started (the core's StartupGate). */
    static final String READY_LEVEL = "pi.host.readyLevel";

    private FelixHost() {
    }

    static int run(Path dataDir, Map<String, String> properties) throws Exception {
        // first: no host runs, reads stdin or starts a child unless its children cannot reach into it
        if (!HostHardening.apply(dataDir, System.err)) {
            return 1;
        }
        if (!Files.isDirectory(dataDir)) {
            // the data dir holds the audit trail, saved secrets and session scratch: owner-only
            Files.createDirectories(dataDir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        }
        Map<String, String> config = new HashMap<>(properties);
        config.put(Constants.FRAMEWORK_STORAGE, dataDir.resolve("felix-cache").toString());
        config.put("pi.host.data", dataDir.toString());
        // the folder of pi.host.api.jar, which plugin modules compile against (PluginScaffold, PluginPack)
        config.put("pi.host.sdk", BundleSet.assemblyDir().resolve("bundle").toString());
        // SCR keeps the component descriptions it read in its data area (felix-cache, under the owner-only
        // data dir) and reads them back on the next start instead of parsing every bundle's XML again; an
        // entry counts only while its bundle's last-modified time is unchanged (an updated bundle is parsed
        // anew), and it is written when SCR stops. The XML parse was the largest single item on the start's
        // one thread before the first answer: ~150 ms of the core's activation, 23 % of FelixStartLevel's
        // samples (docs/performance-log.md, branch start15).
        config.put("ds.cache.metadata", "true");
        config.put("felix.log.level", "1"); // errors only; Felix's logger prints through System.out, i.e. stderr
        // the class path's JNA (already loaded for prctl) and slf4j with its provider: the bundles wire to these
        String libraries = ClassPathLibraries.exports();
        if (libraries != null) {
            config.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, libraries);
        }
        // no ServiceLoader mediator: Rhino requires its capabilities, its parser needs no lookup
        config.put(Constants.FRAMEWORK_SYSTEMCAPABILITIES_EXTRA, ServiceLoaderCapabilities.SYSTEM_CAPABILITIES_EXTRA);
        dropInFolder(dataDir, config);

        List<BundleSet.Entry> entries = BundleSet.entries(BundleSet.assemblyDir(), properties.get(BundleSet.SETS));
        List<Path> jars = BundleSet.jars(entries);
        int readyLevel = 1;
        for (BundleSet.Entry e : entries) {
            readyLevel = Math.max(readyLevel, e.startLevel());
        }
        // the framework starts level 1 (what the first answer needs); the launcher raises it afterwards
        config.put(Constants.FRAMEWORK_BEGINNING_STARTLEVEL, "1");
        config.put(READY_LEVEL, Integer.toString(readyLevel));
        List<Path> optional = BundleSet.optional(BundleSet.assemblyDir());
        // the host's only notion of which bundles are its own: fixed before the first bundle is installed
        // (the optional sets are the distribution's too, whether or not this command starts them)
        List<Path> distribution = new ArrayList<>(jars);
        distribution.addAll(optional);
        config.put(DistributionRecord.PROPERTY, DistributionRecord.of(distribution));
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("no OSGi framework on the class path"));
        Framework framework = factory.newFramework(config);
        framework.init();
        Thread hook = new Thread(() -> stop(framework), "pi-host-sigterm");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (replaceChangedExtensions(framework, jars)) {
                // A framework extension (none is in bundles.list today; SPI Fly 1.3.7's was, and a cache
                // from then still holds it) lives on the system bundle's class path: Felix attaches a
                // newly installed one at once, even in an initialised framework, but an updated or
                // uninstalled one only takes effect in a new framework (refreshing it stops the
                // framework with STOPPED_SYSTEM_REFRESHED, which would break start()). So after
                // replacing one, stop and init again from the cache before going on. (A first install
                // needs nothing: one listed first is attached before anything resolves, and the start
                // loop below skips it as a fragment.)
                framework.stop();
                framework.waitForStop(STOP_WAIT_MILLIS);
                framework.init();
            }
            List<Bundle> bundles = installOrUpdate(framework.getBundleContext(), jars, optional);
            // Mark every bundle for start before the framework starts: the framework then starts those of
            // level 1 and only afterwards fires STARTED, which is when the stdio server begins to read.
            List<Bundle> first = new ArrayList<>();
            for (int i = 0; i < bundles.size(); i++) {
                Bundle b = bundles.get(i);
                int level = entries.get(i).startLevel();
                b.adapt(BundleStartLevel.class).setStartLevel(level);
                if (level == 1) {
                    first.add(b);
                }
                if (!fragment(b)) {
                    b.start();
                }
            }
            framework.start();
            String failed = notStarted(first);
            if (failed == null) {
                if (!serving(framework.getBundleContext())) {
                    // components that fail to activate leave a running framework that never answers: end it
                    System.err.println("pi-host: the host core did not start (its RPC endpoint is missing; see the"
                            + " component errors above)");
                    stop(framework);
                    return 1;
                }
                // the rest while the first answer is given: a request that needs it waits (StartupGate);
                // a host asked to stop meanwhile (end of input at once) ends as it would have after its start
                Raised raised = startLevel(framework, readyLevel);
                if (raised == Raised.REACHED) {
                    failed = notStarted(bundles);
                } else if (raised == Raised.TIMED_OUT) {
                    failed = "start level " + readyLevel + " not reached within " + STOP_WAIT_MILLIS * 3 + " ms";
                }
            }
            if (failed != null) {
                System.err.println("pi-host: bundles did not start (unresolved?): " + failed);
                stop(framework);
                return 1;
            }
        } catch (BundleException | InterruptedException e) {
            System.err.println("pi-host: " + e.getMessage());
            stop(framework);
            return 1;
        }
        FrameworkEvent event = framework.waitForStop(0);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyExiting) {
            // the JVM is already shutting down through the hook
        }
        return event.getType() == FrameworkEvent.ERROR ? 1 : 0;
    }

    /**
     * Creates {@code <data_dir>/plugins} and tells the plugin runtime to watch it
     * ({@value #PLUGINS_DIR}, polled every {@value #PLUGINS_POLL} ms unless the caller says otherwise).
     * The runtime checks each jar there before it installs it, and never starts one.
     */
    static Path dropInFolder(Path dataDir, Map<String, String> config) throws IOException {
        Path plugins = dataDir.resolve("plugins");
        Files.createDirectories(plugins);
        config.putIfAbsent(PLUGINS_DIR, plugins.toString());
        config.putIfAbsent(PLUGINS_POLL, "1000");
        return plugins;
    }

    /**
     * Updates cached framework extensions whose jar is newer and uninstalls those no longer listed;
     * true when it changed one (the framework must then be initialised again). New extensions are
     * left to {@link #installOrUpdate}: installing one needs no restart.
     */
    private static boolean replaceChangedExtensions(Framework framework, List<Path> jars) throws BundleException {
        Map<String, Path> listed = new HashMap<>();
        for (Path jar : jars) {
            listed.put(DistributionRecord.location(jar), jar);
        }
        boolean changed = false;
        for (Bundle b : framework.getBundleContext().getBundles()) {
            if (b.getBundleId() == 0 || !isFrameworkExtension(framework, b)) {
                continue;
            }
            Path jar = listed.get(b.getLocation());
            if (jar == null) {
                b.uninstall();
                changed = true;
            } else if (lastModified(jar) > b.getLastModified()) {
                b.update();
                changed = true;
            }
        }
        return changed;
    }

    /** A fragment of the system bundle ({@code Fragment-Host: system.bundle; extension:=framework}). */
    private static boolean isFrameworkExtension(Framework framework, Bundle b) {
        String host = b.getHeaders("").get(Constants.FRAGMENT_HOST);
        if (host == null) {
            return false;
        }
        String name = host.split(";", 2)[0].strip();
        return name.equals(Constants.SYSTEM_BUNDLE_SYMBOLICNAME) || name.equals(framework.getSymbolicName());
    }

    /**
     * Whether the host core's RPC endpoint can be had: every bundle started synchronously, so it is
     * registered by now if at all, and getting it activates it (a component that fails to activate
     * answers null).
     */
    private static boolean serving(BundleContext context) {
        org.osgi.framework.ServiceReference<?> ref = context.getServiceReference("pi.host.core.rpc.RpcEndpoint");
        if (ref == null) {
            return false;
        }
        try {
            return context.getService(ref) != null;
        } finally {
            context.ungetService(ref);
        }
    }

    private enum Raised { REACHED, STOPPING, TIMED_OUT }

    /**
     * Raises the framework's start level and waits until every bundle up to it has started, or until the
     * framework stops (Felix drops a pending level change when it is stopped, so its listener may never
     * hear of it).
     */
    private static Raised startLevel(Framework framework, int level) throws InterruptedException {
        FrameworkStartLevel start = framework.adapt(FrameworkStartLevel.class);
        CountDownLatch reached = new CountDownLatch(1);
        start.setStartLevel(level, event -> reached.countDown());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS * 3);
        while (!reached.await(50, TimeUnit.MILLISECONDS)) {
            if (framework.getState() != Bundle.ACTIVE) {
                return Raised.STOPPING;
            }
            if (System.nanoTime() > deadline) {
                return Raised.TIMED_OUT;
            }
        }
        return framework.getState() == Bundle.ACTIVE ? Raised.REACHED : Raised.STOPPING;
    }

    private static boolean fragment(Bundle b) {
        return (b.adapt(BundleRevision.class).getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }

    /** The bundles that should be active and are not, or null when all are. */
    private static String notStarted(List<Bundle> bundles) {
        StringBuilder failed = new StringBuilder();
        for (Bundle b : bundles) {
            boolean ok = fragment(b) ? b.getState() == Bundle.RESOLVED : b.getState() == Bundle.ACTIVE;
            if (!ok) {
                failed.append(failed.length() == 0 ? "" : ", ").append(b.getSymbolicName());
            }
        }
        return failed.length() == 0 ? null : failed.toString();
    }

    /**
     * Installs the listed jars, updating a cached bundle only when its jar is newer than the cache,
     * and uninstalls every other cached bundle, drop-ins included: when the framework starts, only the
     * distribution is in it, so nothing else can take part in resolving the host's bundles. The plugin
     * runtime installs the drop-ins again from the folder (checked again) once the host is up. The
     * bundles of optional sets not asked for this time stay in the cache, stopped (they neither start
     * nor resolve on their own).
     */
    private static List<Bundle> installOrUpdate(BundleContext context, List<Path> jars, List<Path> optional)
            throws BundleException {
        Map<String, Bundle> cached = new HashMap<>();
        for (Bundle b : context.getBundles()) {
            if (b.getBundleId() != 0) {
                cached.put(b.getLocation(), b);
            }
        }
        List<Bundle> result = new ArrayList<>();
        for (Path jar : jars) {
            String location = DistributionRecord.location(jar);
            Bundle b = cached.remove(location);
            if (b == null) {
                b = context.installBundle(location);
            } else if (lastModified(jar) > b.getLastModified()) {
                b.update();
            }
            result.add(b);
        }
        Set<String> unused = new HashSet<>();
        for (Path jar : optional) {
            unused.add(DistributionRecord.location(jar));
        }
        for (Bundle other : cached.values()) {
            if (unused.contains(other.getLocation())) {
                // an optional set this command did not ask for: kept in the cache, but not started
                // (the cache remembers that it was started last time)
                other.stop();
            } else {
                other.uninstall();
            }
        }
        return result;
    }

    private static long lastModified(Path jar) {
        try {
            return Files.getLastModifiedTime(jar).toMillis();
        } catch (IOException e) {
            return Long.MAX_VALUE; // unreadable: let the update report the problem
        }
    }

    private static void stop(Framework framework) {
        try {
            framework.stop();
            framework.waitForStop(STOP_WAIT_MILLIS);
        } catch (BundleException | InterruptedException e) {
            System.err.println("pi-host: stopping the framework failed: " + e);
        }
    }
}
