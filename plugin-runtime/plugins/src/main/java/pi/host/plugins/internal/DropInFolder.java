package pi.host.plugins.internal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.jar.Manifest;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.wiring.FrameworkWiring;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.PluginReport;
import pi.host.plugins.check.Problem;
import pi.host.spi.PluginInfo;

/**
 * The drop-in folder ({@code <data_dir>/plugins}) as the runtime keeps it. Each {@code *.jar} there is
 * copied once, checked by the one validator (every header that would run code, wire to the host or
 * attach to it is refused, and so is a jar that is not a plugin, not a readable zip or too large) and
 * only then installed, from the checked copy, under a location of its own ({@value #LOCATION_PREFIX}
 * and the file's URI, which is never a distribution bundle's). Nothing here ever starts a bundle: the
 * runtime loads a plugin's tool classes after the user's grant and nothing else of it runs. A jar that
 * is refused is not installed at all; it is listed with its problems. Not thread-safe: the extender
 * calls it from its one worker thread.
 */
final class DropInFolder {

    /** The location prefix of every bundle installed from the folder. */
    static final String LOCATION_PREFIX = "drop-in:";

    /** What the folder tells the extender about jars it refused (they have no bundle to be tracked). */
    interface Listener {
        void refusedChanged(String pluginId, String state);
    }

    private record Signature(long size, long modified, Object key) {
    }

    /** One file: the bundle installed from it, or the record of its refusal. */
    private record Entry(Signature signature, long bundleId, PluginInfo refused) {
    }

    private final Path dir;
    private final Path staging;
    private final BundleContext context;
    private final Predicate<String> granted;
    private final Listener listener;
    private final Map<String, Entry> byFile = new TreeMap<>();
    private boolean missingReported;

    DropInFolder(Path dir, Path staging, BundleContext context, Predicate<String> granted, Listener listener) {
        this.dir = dir;
        this.staging = staging;
        this.context = context;
        this.granted = granted;
        this.listener = listener;
    }

    /** Uninstalls what an earlier run of the runtime installed from the folder: the folder is read afresh. */
    void reset() {
        for (Bundle b : context.getBundles()) {
            if (b.getLocation().startsWith(LOCATION_PREFIX)) {
                uninstall(b);
            }
        }
    }

    /** Looks at the folder once: installs what is new, replaces what changed, uninstalls what is gone. */
    void scan() {
        Map<String, Path> present = list();
        if (present == null) {
            return;
        }
        for (String name : new ArrayList<>(byFile.keySet())) {
            if (!present.containsKey(name)) {
                forget(byFile.remove(name));
            }
        }
        for (Map.Entry<String, Path> e : present.entrySet()) {
            Signature now = signature(e.getValue());
            Entry known = byFile.get(e.getKey());
            if (now != null && (known == null || !known.signature().equals(now))) {
                if (known != null) {
                    forget(byFile.remove(e.getKey()));
                }
                Entry taken = take(e.getKey(), e.getValue(), now);
                byFile.put(e.getKey(), taken);
                if (taken.refused() != null) {
                    // after the put: a client that hears plugins.changed and asks plugins.list sees the record
                    listener.refusedChanged(taken.refused().id(), PluginLifecycle.INVALID);
                }
            }
        }
    }

    /** The file a bundle was installed from, or null when the folder did not install it. */
    String fileOf(long bundleId) {
        for (Map.Entry<String, Entry> e : byFile.entrySet()) {
            if (e.getValue().bundleId() == bundleId) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The user granted or revoked something for {@code pluginId}: the refused records show the stored grant. */
    void grantsChanged(String pluginId) {
        for (Map.Entry<String, Entry> e : byFile.entrySet()) {
            PluginInfo r = e.getValue().refused();
            if (r != null && r.id().equals(pluginId)) {
                e.setValue(new Entry(e.getValue().signature(), -1, new PluginInfo(r.id(), r.name(), r.version(), -1,
                        r.symbolicName(), r.file(), r.state(), granted.test(pluginId), r.problems(), r.warnings(),
                        r.tools())));
            }
        }
    }

    /** The jars refused before install, as plugins.list shows them. */
    List<PluginInfo> refused() {
        List<PluginInfo> out = new ArrayList<>();
        for (Entry e : byFile.values()) {
            if (e.refused() != null) {
                out.add(e.refused());
            }
        }
        return out;
    }

    private Map<String, Path> list() {
        if (!Files.isDirectory(dir)) {
            if (!missingReported) {
                missingReported = true;
                log("the drop-in folder " + dir + " does not exist; no plugin is installed from it", null);
            }
            return null;
        }
        missingReported = false;
        Map<String, Path> out = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.jar")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (!name.startsWith(".") && Files.isRegularFile(f)) {
                    out.put(name, f);
                }
            }
        } catch (IOException e) {
            log("the drop-in folder " + dir + " cannot be listed", e);
            return null;
        }
        return out;
    }

    private static Signature signature(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Signature(a.size(), a.lastModifiedTime().toMillis(), a.fileKey());
        } catch (IOException e) {
            return null; // gone since it was listed: the next scan sees it as removed
        }
    }

    /** Checks the jar and installs it, or records why not. */
    private Entry take(String name, Path file, Signature signature) {
        try (StagedJar jar = StagedJar.stage(file, staging)) {
            PluginReport report = PluginInspector.inspect(jar.manifest(), jar.entries());
            if (!report.valid()) {
                return refused(name, signature, jar.manifest(), report, report.errors());
            }
            Problem taken = nameTaken(jar.manifest());
            if (taken != null) {
                return refused(name, signature, jar.manifest(), report, List.of(taken));
            }
            Bundle b;
            try {
                b = context.installBundle(LOCATION_PREFIX + file.toUri(), jar.open());
            } catch (BundleException | RuntimeException e) {
                String why = e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")");
                return refused(name, signature, jar.manifest(), report, List.of(new Problem(name, "the framework"
                        + " refused to install it: " + why, "give the plugin its own Bundle-SymbolicName and a"
                        + " well-formed manifest (bnd writes one)")));
            }
            // resolve now (no code runs): a plugin that cannot resolve is listed so before anyone grants it
            context.getBundle(0).adapt(FrameworkWiring.class).resolveBundles(List.of(b));
            return new Entry(signature, b.getBundleId(), null);
        } catch (StagedJar.Unreadable e) {
            return refused(name, signature, null, null, List.of(e.problem()));
        } catch (IOException | RuntimeException e) {
            return refused(name, signature, null, null, List.of(new Problem(name, "the jar cannot be read: " + e,
                    "drop the jar in again")));
        }
    }

    /**
     * Why a jar may not be installed under its symbolic name, or null: the name is already a bundle's
     * that did not come from this folder (the host's own, or installed by other means). Checked before
     * install, because an installed bundle with the name of a later-starting host bundle, even one the
     * wiring guard refuses, is already one too many: nothing of it may take part in the framework's
     * resolves. Another drop-in's name is the framework's to judge (it refuses the same name and version).
     */
    private Problem nameTaken(Manifest manifest) {
        String bsn = symbolicName(manifest);
        if (bsn == null) {
            return null;
        }
        for (Bundle b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName()) && !b.getLocation().startsWith(LOCATION_PREFIX)) {
                return new Problem("META-INF/MANIFEST.MF: Bundle-SymbolicName", "the symbolic name " + bsn
                        + " is bundle " + b.getBundleId() + "'s, which did not come from the drop-in folder (a plugin"
                        + " never takes the name of one of the host's bundles)", "give the plugin a Bundle-SymbolicName"
                        + " of its own (a reverse domain name you own)");
            }
        }
        return null;
    }

    private static String symbolicName(Manifest manifest) {
        String bsn = manifest == null ? null : manifest.getMainAttributes().getValue("Bundle-SymbolicName");
        bsn = bsn == null ? null : bsn.split(";", 2)[0].strip();
        return bsn == null || bsn.isEmpty() ? null : bsn;
    }

    private Entry refused(String name, Signature signature, Manifest manifest, PluginReport report,
            List<Problem> problems) {
        String bsn = symbolicName(manifest);
        String id = report != null && report.declaredId() != null ? report.declaredId() : bsn != null ? bsn : name;
        PluginInfo info = new PluginInfo(id, null, null, -1, bsn, name, PluginLifecycle.INVALID, granted.test(id),
                PluginLifecycle.infos(problems), report == null ? List.of() : PluginLifecycle.infos(report.warnings()),
                List.of());
        log("refused the drop-in " + name + ": " + problems, null);
        return new Entry(signature, -1, info);
    }

    private void forget(Entry e) {
        if (e.refused() != null) {
            listener.refusedChanged(e.refused().id(), PluginLifecycle.REMOVED);
            return;
        }
        Bundle b = context.getBundle(e.bundleId());
        if (b != null) {
            uninstall(b);
        }
    }

    private static void uninstall(Bundle b) {
        try {
            b.uninstall();
        } catch (BundleException | IllegalStateException e) {
            log("uninstalling drop-in bundle " + b.getBundleId() + " failed", e);
        }
    }

    private static void log(String message, Throwable e) {
        System.getLogger(DropInFolder.class.getName()).log(System.Logger.Level.WARNING, message, e);
    }
}
