package pi.host.it;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.composite;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.ops4j.pax.exam.Constants;
import org.ops4j.pax.exam.Option;
import pi.host.launcher.DistributionRecord;
import pi.host.launcher.ServiceLoaderCapabilities;

/**
 * The container every in-container test boots: exactly the bundle set the launcher ships (as
 * {@code bundles/target/pi-host/bundles.list} names it, in its order, then the libraries the launcher
 * offers from its class path, installed here as the bundles they are), plus what Pax Exam and the
 * test code need to run inside Felix. Tests see the host as a user's launcher starts it, not a set
 * of bundles picked for the test. (One difference: slf4j-api finds no provider without the launcher's
 * class path, so the host's bundles log nothing here; slf4j says so once on stderr.)
 */
public final class HostBundles {

    /** System property (set by Failsafe) naming the assembled {@code pi-host} directory. */
    public static final String ASSEMBLY = "pi.host.assembly";

    private HostBundles() {
    }

    /** The full container configuration. */
    public static Option options() {
        return options(new String[0]);
    }

    /**
     * The full container configuration, where the bundles at {@code extraLocations} (which a test
     * installs itself) count as part of this container's distribution: the test plays the launcher
     * and declares them on the same record the launcher writes ({@link DistributionRecord}).
     */
    public static Option options(String... extraLocations) {
        return options(assembledJars(), extraLocations);
    }

    /**
     * The full container configuration without the assembled bundles named {@code symbolicNames}
     * (leaves that nothing else needs): for a test about a host bundle's name that nothing installed.
     */
    public static Option optionsWithout(Set<String> symbolicNames) {
        List<Path> all = assembledJars();
        List<Path> jars = new ArrayList<>();
        for (Path jar : all) {
            if (!symbolicNames.contains(symbolicName(jar))) {
                jars.add(jar);
            }
        }
        if (jars.size() + symbolicNames.size() != all.size()) {
            throw new IllegalArgumentException("not all of " + symbolicNames + " are in the assembly");
        }
        return options(jars);
    }

    private static Option options(List<Path> jars, String... extraLocations) {
        return composite(
                // an unresolved bundle is a broken assembly: fail the container, not some later assertion
                systemProperty(Constants.EXAM_FAIL_ON_UNRESOLVED_KEY).value("true"),
                // as the launcher declares them (Rhino requires them; no mediator runs)
                frameworkProperty(org.osgi.framework.Constants.FRAMEWORK_SYSTEMCAPABILITIES_EXTRA)
                        .value(ServiceLoaderCapabilities.SYSTEM_CAPABILITIES_EXTRA),
                distributionRecord(jars, extraLocations),
                dropInFolder(),
                examSupport(),
                assembly(jars));
    }

    /**
     * The launcher's record of the distribution, for the same jars at the same locations: the host
     * trusts exactly these bundles as its own, and everything Pax Exam and the tests install besides
     * (the probe, JUnit, the throw-away bundles) is third-party, as drop-ins are.
     */
    private static Option distributionRecord(List<Path> jars, String... extraLocations) {
        StringBuilder record = new StringBuilder(DistributionRecord.of(jars));
        for (String location : extraLocations) {
            record.append(' ').append(location);
        }
        return frameworkProperty(DistributionRecord.PROPERTY).value(record.toString());
    }

    /** These jars of the assembled bundle set, each installed by file: URL in bundles.list order. */
    private static Option assembly(List<Path> jars) {
        // by file: URL because reactor artifacts are not in ~/.m2 (we never mvn install), so
        // pax-url-aether could not find them (TOOLCHAIN.md)
        return composite(jars.stream()
                .map(jar -> bundle(DistributionRecord.location(jar)))
                .toArray(Option[]::new));
    }

    /**
     * The plugin runtime watches a fresh drop-in folder of each container, as the launcher points it
     * at {@code <data_dir>/plugins}.
     */
    private static Option dropInFolder() {
        Path dir;
        try {
            Path base = Paths.get(System.getProperty(ProviderBundles.DIRECTORY)).toAbsolutePath().getParent();
            Files.createDirectories(base);
            dir = Files.createTempDirectory(base, "drop-in-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return composite(
                frameworkProperty("pi.host.plugins.dir").value(dir.toString()),
                frameworkProperty("pi.host.plugins.poll").value("200"));
    }

    /**
     * What the test code needs in the container besides the host. Pax Exam 4.14 already provisions
     * jakarta.inject-api (javax.inject, for {@code @Inject}) on its own; installing it again would be a
     * duplicate bundle.
     */
    private static Option examSupport() {
        return composite(
                // TOOLCHAIN.md: with pax.exam.logging=none (set by Failsafe) Pax Exam installs no logging;
                // 2.3.2 exports slf4j 1.7 and 2.0 for its own bundles (the default 2.1.4 only 1.7)
                mavenBundle("org.ops4j.pax.logging", "pax-logging-api").versionAsInProject(),
                // without a pax-logging backend it prints to stdout, by default everything down to DEBUG
                systemProperty("org.ops4j.pax.logging.DefaultServiceLog.level").value("WARN"),
                junitBundles(),
                // Awaitility in the probe: tests wait for conditions with a bound, never sleep
                mavenBundle("org.hamcrest", "hamcrest").versionAsInProject(),
                mavenBundle("org.awaitility", "awaitility").versionAsInProject());
    }

    /**
     * The jars of the assembly, in install order: bundles.list's, then those of the launcher's class-path
     * libraries it does not list (slf4j; JNA is in both).
     */
    public static List<Path> assembledJars() {
        Path root = assemblyRoot();
        Path list = root.resolve("bundles.list");
        List<Path> jars = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
                String name = line.strip();
                if (name.isEmpty() || name.startsWith("#") || name.startsWith("start-level ")) {
                    continue; // the launcher's start levels: in the container every bundle starts at once
                }
                Path jar = root.resolve("bundle").resolve(name);
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalStateException(list + " names " + name + ", which is not in " + jar.getParent());
                }
                jars.add(jar);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + list + " (is the bundles module packaged?)", e);
        }
        if (jars.isEmpty()) {
            throw new IllegalStateException(list + " names no bundle");
        }
        // the launcher's ClassPathLibraries: every pi-host/bundle/ jar of its Class-Path (read here, as the
        // probe in the container does not see the launcher's classes)
        Path launcher = root.resolveSibling("pi.host.launcher.jar");
        try (JarFile file = new JarFile(launcher.toFile(), false)) {
            String classPath = file.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            for (String entry : classPath.strip().split(" +")) {
                Path jar = launcher.resolveSibling(entry).normalize();
                if (entry.startsWith("pi-host/bundle/") && !jars.contains(jar)) {
                    if (!Files.isRegularFile(jar)) {
                        throw new IllegalStateException(launcher + "'s Class-Path names " + entry + ", which is missing");
                    }
                    jars.add(jar);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + launcher + " (is the bundles module packaged?)", e);
        }
        return jars;
    }

    /** The Bundle-SymbolicName of every assembled jar, in install order. */
    public static List<String> assembledSymbolicNames() {
        List<String> names = new ArrayList<>();
        for (Path jar : assembledJars()) {
            names.add(symbolicName(jar));
        }
        return names;
    }

    private static String symbolicName(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            String bsn = file.getManifest().getMainAttributes().getValue("Bundle-SymbolicName");
            if (bsn == null) {
                throw new IllegalStateException(jar + " is not a bundle");
            }
            // drop directives such as ;singleton:=true
            return bsn.split(";", 2)[0].strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
    }

    private static Path assemblyRoot() {
        String dir = System.getProperty(ASSEMBLY);
        if (dir == null) {
            throw new IllegalStateException("system property " + ASSEMBLY + " is not set (Failsafe sets it)");
        }
        return Paths.get(dir).toAbsolutePath().normalize();
    }
}
