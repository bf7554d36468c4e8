package pi.host.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.apache.felix.framework.FrameworkFactory;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.wiring.BundleRevision;

/**
 * The host as the launcher runs it, embedded in the benchmark's JVM: Felix with exactly the bundle
 * set of {@code bundles/target/pi-host/bundles.list} (installed by file: URL, in order), a fresh
 * data dir, plus the probe bundle written here from the classes of {@code pi.host.bench.probe}.
 * The benchmark reaches the host only through the probe's JDK-typed services, so its own class
 * loader never needs {@code pi.host.api}.
 */
final class EmbeddedHost implements AutoCloseable {

    static final String TOOL = "plugin_bench_noop";
    private static final String PROBE_ROLE = "pi.bench.probe";
    private static final String[] PROBE_CLASSES = {
        "NoopTool", "DirectCall", "ProbeActivator", "ProbeActivator$Line", "FileReads",
    };

    private final Path scratch;
    private final Path dataDir;
    private final Path projectRoot;
    private final Framework framework;
    private final Function<Consumer<String>, Object> connect;
    private final Supplier<Object> direct;

    @SuppressWarnings("unchecked")
    EmbeddedHost() throws Exception {
        scratch = Files.createTempDirectory("pi-host-bench-");
        dataDir = scratch.resolve("data");
        projectRoot = Files.createDirectories(scratch.resolve("project"));
        Files.writeString(projectRoot.resolve("small.txt"), "hello\n");
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, dataDir.resolve("felix-cache").toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put("pi.host.data", dataDir.toString());
        config.put("felix.log.level", "1");
        // as the launcher declares them: Rhino requires the Service Loader Mediator's capabilities, none runs
        config.put(Constants.FRAMEWORK_SYSTEMCAPABILITIES_EXTRA,
                pi.host.launcher.ServiceLoaderCapabilities.SYSTEM_CAPABILITIES_EXTRA); // a constant: compiled in
        // the launcher's record of the distribution (pi.host.launcher.DistributionRecord): the assembled
        // jars by location; the probe and the bench plugin below are third-party, as a drop-in is
        List<Path> jars = assembledJars();
        config.put("pi.host.distribution", String.join(" ", jars.stream().map(j -> j.toUri().toString()).toList()));
        framework = new FrameworkFactory().newFramework(config);
        framework.init();
        BundleContext ctx = framework.getBundleContext();
        List<Bundle> bundles = new ArrayList<>();
        for (Path jar : jars) {
            bundles.add(ctx.installBundle(jar.toUri().toString()));
        }
        bundles.add(ctx.installBundle(writeProbe(scratch.resolve("pi.host.bench.probe.jar")).toUri().toString()));
        bundles.add(ctx.installBundle(writePlugin(scratch.resolve("pi.host.bench.plugin.jar")).toUri().toString()));
        for (Bundle b : bundles) {
            if ((b.adapt(BundleRevision.class).getTypes() & BundleRevision.TYPE_FRAGMENT) == 0) {
                b.start();
            }
        }
        framework.start();
        for (Bundle b : bundles) {
            boolean fragment = (b.adapt(BundleRevision.class).getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
            if (!fragment && b.getState() != Bundle.ACTIVE) {
                throw new BundleException(b.getSymbolicName() + " did not start");
            }
        }
        connect = probeService(ctx, Function.class, "rpc");
        direct = probeService(ctx, Supplier.class, "direct");
        grantBenchPlugin();
    }

    /** The bench plugin: the no-op tool, low risk (no card in any permission mode), one string argument. */
    static final String BENCH_DESCRIPTOR = "{\"id\":\"bench\",\"name\":\"Benchmark probe\",\"version\":\"1.0.0\","
            + "\"agentTools\":[{\"name\":\"noop\",\"description\":\"Does nothing (benchmark probe).\","
            + "\"class\":\"pi.host.bench.probe.NoopTool\",\"risk\":\"low\",\"inputSchema\":{\"type\":\"object\","
            + "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],"
            + "\"additionalProperties\":false}}]}";

    /**
     * Grants the bench plugin through plugins.grant, as a user would, and returns once its tool is
     * registered (the grant answers after the registration). Until the runtime has seen the plugin
     * bundle the grant is refused as an unknown plugin: asked again until it is known.
     */
    @SuppressWarnings("unchecked")
    private void grantBenchPlugin() throws Exception {
        java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        Object connection = connect(lines::add);
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            for (int id = 1; System.nanoTime() < deadline; id++) {
                ((Consumer<String>) connection).accept("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":"
                        + "\"plugins.grant\",\"params\":{\"pluginId\":\"bench\",\"capability\":\"agent.tool.register\"}}");
                String answer;
                do {
                    answer = lines.poll(30, java.util.concurrent.TimeUnit.SECONDS);
                } while (answer != null && !answer.contains("\"id\":" + id + ","));
                if (answer != null && answer.contains("\"state\":\"registered\"")) {
                    return;
                }
                sleep(20);
            }
            throw new IllegalStateException("the bench plugin was not registered after its grant");
        } finally {
            ((AutoCloseable) connection).close();
        }
    }

    Path projectRoot() {
        return projectRoot;
    }

    /** Opens an in-process JSON-RPC connection; the result is a line sink that is also AutoCloseable. */
    Object connect(Consumer<String> out) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                return connect.apply(out);
            } catch (IllegalStateException notYet) {
                // the host's DS components activate asynchronously after the framework started
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                sleep(20);
            }
        }
    }

    Supplier<Object> direct() {
        return direct;
    }

    Path databaseFile() {
        return dataDir.resolve("pi-host.db");
    }

    /**
     * The medians of what the pipeline itself recorded on the audit rows of the benchmark tool:
     * {@code total_ms} (execute() entered until the row is built, so without the insert) and
     * {@code duration_ms} (the tool body, from its start until its result is back).
     */
    String auditTimings(String sessionId) throws SQLException {
        StringBuilder s = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + databaseFile())) {
            for (String column : new String[] {"total_ms", "duration_ms"}) {
                try (PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM audit WHERE session_id = ?"
                        + " AND tool_name = ? ORDER BY " + column + " LIMIT 1 OFFSET (SELECT count(*) / 2 FROM audit"
                        + " WHERE session_id = ? AND tool_name = ?)")) {
                    ps.setString(1, sessionId);
                    ps.setString(2, TOOL);
                    ps.setString(3, sessionId);
                    ps.setString(4, TOOL);
                    try (ResultSet rs = ps.executeQuery()) {
                        s.append(s.length() == 0 ? "" : ", ").append(column).append(' ')
                                .append(rs.next() ? String.format("%.1f µs", rs.getDouble(1) * 1000) : "-");
                    }
                }
            }
        }
        return s.toString();
    }

    /** Audit rows of the benchmark tool in one session, counted in the host's SQLite file. */
    long auditRows(String sessionId) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + databaseFile());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM audit WHERE session_id = ? AND tool_name = ? AND ok = 1")) {
            ps.setString(1, sessionId);
            ps.setString(2, TOOL);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * Stops the host the way the launcher does; its audit rows are then all in the SQLite file (a
     * clean stop empties the audit journal).
     */
    void stop() throws Exception {
        framework.stop();
        framework.waitForStop(20_000);
    }

    @Override
    public void close() throws Exception {
        stop();
        try (Stream<Path> files = Files.walk(scratch)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Read's file open as the probe does it, plain (before issue 13) or pinned (now); returns the bytes read. */
    @SuppressWarnings("unchecked")
    Function<Path, Object> fileRead(boolean pinned) throws Exception {
        return probeService(framework.getBundleContext(), Function.class, pinned ? "pinnedRead" : "plainRead");
    }

    @SuppressWarnings("unchecked")
    private static <T> T probeService(BundleContext ctx, Class<T> type, String role) throws Exception {
        String filter = "(" + PROBE_ROLE + "=" + role + ")";
        for (int i = 0; i < 1500; i++) {
            var refs = ctx.getServiceReferences(type, filter);
            if (!refs.isEmpty()) {
                ServiceReference<T> ref = refs.iterator().next();
                return ctx.getService(ref);
            }
            sleep(20);
        }
        throw new IllegalStateException("the probe bundle registered no " + filter);
    }

    /**
     * The jars bundles.list names, in its order, as the launcher and the integration tests read it (its
     * start levels aside: here every bundle starts at once), then the launcher's class-path libraries it
     * does not list (slf4j), installed as the bundles they are: this JVM has no launcher class path.
     */
    static List<Path> assembledJars() throws IOException {
        Path root = assemblyDir();
        List<Path> jars = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve("bundles.list"), StandardCharsets.UTF_8)) {
            String name = line.strip();
            if (!name.isEmpty() && !name.startsWith("#") && !name.startsWith("start-level ")) {
                jars.add(assembled(root, name));
            }
        }
        Path launcher = root.resolveSibling("pi.host.launcher.jar");
        try (JarFile file = new JarFile(launcher.toFile(), false)) {
            String classPath = file.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            for (String entry : classPath.strip().split(" +")) {
                // pi-host/bundle/: the libraries the launcher offers through the system bundle (ClassPathLibraries)
                Path jar = entry.startsWith("pi-host/bundle/") ? assembled(root, entry.substring(15)) : null;
                if (jar != null && !jars.contains(jar)) {
                    jars.add(jar);
                }
            }
        }
        return jars;
    }

    private static Path assembled(Path root, String name) throws IOException {
        Path jar = root.resolve("bundle").resolve(name);
        if (!Files.isRegularFile(jar)) {
            throw new IOException("the assembly names " + name + ", which is not in " + jar.getParent());
        }
        return jar;
    }

    /**
     * {@code -Dpi.bench.assembly=DIR}, else {@code ../bundles/target/pi-host} seen from
     * {@code bench/target/benchmarks.jar}, else {@code bundles/target/pi-host} under the working dir.
     */
    static Path assemblyDir() {
        String set = System.getProperty("pi.bench.assembly");
        if (set != null) {
            return Path.of(set).toAbsolutePath();
        }
        try {
            Path jar = Path.of(EmbeddedHost.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path candidate = jar.getParent().resolve("../../bundles/target/pi-host").normalize();
            if (Files.isRegularFile(candidate.resolve("bundles.list"))) {
                return candidate;
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the working dir
        }
        Path cwd = Path.of("bundles/target/pi-host").toAbsolutePath();
        if (!Files.isRegularFile(cwd.resolve("bundles.list"))) {
            throw new IllegalStateException("no assembled bundle set found (build with mvn -B -q -DskipTests package,"
                    + " or set -Dpi.bench.assembly=.../bundles/target/pi-host)");
        }
        return cwd;
    }

    /** Writes the bench plugin: its descriptor and the no-op tool's class, importing pi.host.api alone. */
    private static Path writePlugin(Path jar) throws IOException {
        Manifest mf = manifest("pi.host.bench.plugin", "pi.host.api;version=\"[0.2,1)\"");
        mf.getMainAttributes().putValue("Pi-Plugin", "META-INF/pi-plugin.json");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, mf)) {
            out.putNextEntry(new JarEntry("META-INF/pi-plugin.json"));
            out.write(BENCH_DESCRIPTOR.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            copyClass(out, "pi/host/bench/probe/NoopTool.class");
        }
        return jar;
    }

    /** A bundle manifest (version 1.0.0) with exactly these imports. */
    private static Manifest manifest(String symbolicName, String imports) {
        Manifest mf = new Manifest();
        Attributes a = mf.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", symbolicName);
        a.putValue("Bundle-Version", "1.0.0");
        a.putValue("Import-Package", imports);
        return mf;
    }

    private static void copyClass(JarOutputStream out, String entry) throws IOException {
        try (InputStream in = EmbeddedHost.class.getClassLoader().getResourceAsStream(entry)) {
            if (in == null) {
                throw new IOException("probe class missing from the benchmark jar: " + entry);
            }
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
    }

    /** Writes the probe bundle: a manifest and the probe classes, read as resources from this jar. */
    private static Path writeProbe(Path jar) throws IOException {
        Manifest mf = manifest("pi.host.bench.probe", "org.osgi.framework;version=\"[1.8,2)\","
                + " pi.host.api;version=\"[0.2,1)\", pi.host.core.rpc;version=\"[0.2,1)\","
                // the builtins-only SPI, for FileReads: asked for by its mandatory attribute, as pi.host.tools
                // does; optional, so the probe also runs on a host from before it (-Dpi.bench.assembly)
                + " pi.host.spi;version=\"[0.4,1)\";pi.host.spi=builtin;resolution:=optional");
        mf.getMainAttributes().putValue("Bundle-Activator", "pi.host.bench.probe.ProbeActivator");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, mf)) {
            for (String name : PROBE_CLASSES) {
                copyClass(out, "pi/host/bench/probe/" + name + ".class");
            }
        }
        return jar;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
