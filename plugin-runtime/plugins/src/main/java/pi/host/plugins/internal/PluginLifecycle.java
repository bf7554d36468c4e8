package pi.host.plugins.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import pi.host.api.PluginTool;
import pi.host.plugins.check.PluginDescriptor;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.PluginReport;
import pi.host.plugins.check.Problem;
import pi.host.plugins.check.ToolSpec;
import pi.host.spi.GrantsUnavailableException;
import pi.host.spi.PluginHost;
import pi.host.spi.PluginInfo;

/**
 * What happens to a plugin bundle between its arrival and its departure: validation (state
 * {@code invalid}), the grant ({@code awaiting-grant}), loading its classes and registering its
 * tools ({@code registered}), or a failure on the way ({@code failed}). No class of a plugin is
 * loaded before its grant, and a plugin is either fully registered or not at all. Not thread-safe
 * by itself: the extender calls it from one thread.
 */
final class PluginLifecycle {

    static final String INVALID = "invalid";
    static final String AWAITING_GRANT = "awaiting-grant";
    static final String REGISTERED = "registered";
    static final String FAILED = "failed";
    /** The state {@code plugins.changed} reports for a plugin whose bundle went away. */
    static final String REMOVED = "removed";

    private final PluginHost host;
    private final Registrar registrar;
    private final Map<Long, Plugin> byBundle = new TreeMap<>();

    /** One tracked plugin bundle. */
    private static final class Plugin {
        final PluginSource source;
        final PluginReport report;
        final String id;
        final List<Problem> problems = new ArrayList<>();
        final List<Registrar.Registration> registrations = new ArrayList<>();
        String state;
        boolean granted;

        Plugin(PluginSource source, PluginReport report, String id) {
            this.source = source;
            this.report = report;
            this.id = id;
        }
    }

    PluginLifecycle(PluginHost host, Registrar registrar) {
        this.host = host;
        this.registrar = registrar;
    }

    /** A plugin bundle appeared (or was updated: its earlier record is replaced). */
    void arrived(PluginSource source) {
        if (byBundle.containsKey(source.bundleId())) {
            drop(source.bundleId(), false);
        }
        PluginReport report = PluginInspector.inspect(source.manifest(), source.entries());
        String id = report.descriptor() != null ? report.descriptor().id()
                : report.declaredId() != null ? report.declaredId() : source.symbolicName();
        Plugin p = new Plugin(source, report, id);
        byBundle.put(source.bundleId(), p);
        p.problems.addAll(report.errors());
        String unresolved = source.unresolved();
        if (unresolved != null) {
            p.problems.add(new Problem("bundle " + source.symbolicName(), "the bundle is not resolved: " + unresolved,
                    "import only pi.host.api (in a range holding " + PluginInspector.API_VERSION + ") and embed"
                            + " everything else the plugin needs"));
        }
        Plugin other = holderOf(id, p);
        if (p.problems.isEmpty() && other != null) {
            p.problems.add(new Problem(PluginInspector.DEFAULT_DESCRIPTOR + ": id", "plugin id '" + id
                    + "' is already used by bundle " + other.source.bundleId() + " (" + other.source.symbolicName()
                    + ")", "give each plugin its own id, or uninstall the other bundle"));
        }
        if (!p.problems.isEmpty()) {
            p.state = INVALID;
            p.granted = lookUpQuietly(id);
        } else {
            evaluate(p);
        }
        host.pluginsChanged(id, source.bundleId(), p.state);
    }

    /** A plugin bundle left (stopped, updated or uninstalled): its tools go at once. */
    void departed(long bundleId) {
        drop(bundleId, true);
    }

    /** The user granted or revoked something for {@code pluginId}: follow it now. */
    void grantsChanged(String pluginId) {
        for (Plugin p : byBundle.values()) {
            if (!p.id.equals(pluginId)) {
                continue;
            }
            String before = p.state;
            if (INVALID.equals(p.state)) {
                p.granted = lookUpQuietly(pluginId);
            } else {
                evaluate(p);
            }
            if (!p.state.equals(before)) {
                host.pluginsChanged(p.id, p.source.bundleId(), p.state);
            }
        }
    }

    /** Unregisters everything (the runtime is stopping). */
    void closeAll() {
        for (Plugin p : byBundle.values()) {
            unregister(p);
        }
        byBundle.clear();
    }

    List<PluginInfo> list() {
        List<PluginInfo> out = new ArrayList<>();
        for (Plugin p : byBundle.values()) {
            PluginDescriptor d = p.report.descriptor();
            List<PluginInfo.ToolInfo> tools = new ArrayList<>();
            if (d != null) {
                for (ToolSpec t : d.tools()) {
                    tools.add(new PluginInfo.ToolInfo(t.name(), t.exposedName(), t.risk(), t.actions(),
                            t.planSafeActions()));
                }
            }
            out.add(new PluginInfo(p.id, d == null ? null : d.name(), d == null ? null : d.version(),
                    p.source.bundleId(), p.source.symbolicName(), p.source.file(), p.state, p.granted, infos(p.problems),
                    infos(p.report.warnings()), tools));
        }
        return out;
    }

    /** Registers or unregisters a valid plugin to match its grant; a grant that cannot be read counts as none. */
    private void evaluate(Plugin p) {
        p.problems.clear();
        try {
            p.granted = host.granted(p.id, PluginHost.TOOL_REGISTER);
        } catch (GrantsUnavailableException e) {
            p.granted = false;
            unregister(p);
            p.state = FAILED;
            p.problems.add(new Problem("grant store", "the grant of " + PluginHost.TOOL_REGISTER
                    + " cannot be read, so the plugin is not registered: " + e.getMessage(),
                    "check the host's data dir (pi-host.db); the plugin registers at the next grant change or"
                            + " restart"));
            return;
        }
        if (!p.granted) {
            unregister(p);
            p.state = AWAITING_GRANT;
            return;
        }
        if (REGISTERED.equals(p.state)) {
            return;
        }
        register(p);
    }

    /** Loads every tool class first; registers only when all of them load, so a plugin is all or nothing. */
    private void register(Plugin p) {
        List<ToolSpec> specs = p.report.descriptor().tools();
        List<PluginTool> instances = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            ToolSpec spec = specs.get(i);
            String where = PluginInspector.DEFAULT_DESCRIPTOR + ": agentTools[" + i + "].class";
            try {
                Class<?> type = p.source.loadClass(spec.className());
                String problem = PluginInspector.toolClassProblem(type);
                if (problem != null) {
                    p.problems.add(new Problem(where, problem, PluginInspector.TOOL_CLASS_FIX));
                    continue;
                }
                instances.add((PluginTool) type.getConstructor().newInstance());
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                Throwable cause = e instanceof java.lang.reflect.InvocationTargetException ? e.getCause() : e;
                p.problems.add(new Problem(where, "class " + spec.className() + " cannot be loaded or created: "
                        + cause, "make sure the class and everything it uses are in the bundle, and that its"
                                + " constructor does not throw"));
            }
        }
        if (!p.problems.isEmpty()) {
            p.state = FAILED;
            return;
        }
        try {
            for (int i = 0; i < specs.size(); i++) {
                p.registrations.add(registrar.register(p.id, specs.get(i),
                        new PluginToolAdapter(p.id, specs.get(i), instances.get(i))));
            }
            p.state = REGISTERED;
        } catch (RuntimeException e) {
            unregister(p);
            p.state = FAILED;
            p.problems.add(new Problem("registration", "the tools could not be registered: " + e,
                    "report this to the host's maintainers"));
        }
    }

    private void drop(long bundleId, boolean announce) {
        Plugin p = byBundle.remove(bundleId);
        if (p == null) {
            return;
        }
        unregister(p);
        if (announce) {
            host.pluginsChanged(p.id, bundleId, REMOVED);
        }
        // a plugin refused only because this one held its id may now load
        for (Plugin waiting : List.copyOf(byBundle.values())) {
            if (waiting.id.equals(p.id) && INVALID.equals(waiting.state) && waiting.report.valid()
                    && waiting.source.unresolved() == null) {
                arrived(waiting.source);
            }
        }
    }

    private void unregister(Plugin p) {
        for (Registrar.Registration r : p.registrations) {
            try {
                r.unregister();
            } catch (RuntimeException e) {
                // already gone (the framework is stopping); nothing else to undo
            }
        }
        p.registrations.clear();
    }

    private Plugin holderOf(String id, Plugin except) {
        for (Plugin p : byBundle.values()) {
            if (p != except && p.id.equals(id) && !INVALID.equals(p.state)) {
                return p;
            }
        }
        return null;
    }

    private boolean lookUpQuietly(String id) {
        try {
            return host.granted(id, PluginHost.TOOL_REGISTER);
        } catch (GrantsUnavailableException e) {
            return false;
        }
    }

    static List<PluginInfo.Problem> infos(List<Problem> problems) {
        List<PluginInfo.Problem> out = new ArrayList<>();
        for (Problem p : problems) {
            out.add(new PluginInfo.Problem(p.where(), p.what(), p.fix()));
        }
        return out;
    }
}
