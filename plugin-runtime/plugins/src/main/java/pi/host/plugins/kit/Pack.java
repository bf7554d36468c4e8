package pi.host.plugins.kit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.PluginReport;

/**
 * {@code plugin pack}: builds a plugin module with Maven against the installed api, checks the jar
 * exactly as the host will, and drops it into {@code <data dir>/plugins/}, the folder the host
 * watches. The jar is copied to a staging folder beside it first and then renamed into place, so the
 * watcher never sees half a jar; it is named {@code <plugin id>.jar}, so packing again replaces
 * (updates) the same bundle.
 */
public final class Pack {

    /** The folder under the data dir that the host watches. */
    public static final String PLUGINS = "plugins";
    /** Where the jar is staged before the rename (beside {@link #PLUGINS}, never inside it). */
    static final String STAGING = "plugin-staging";

    /**
     * What packing did.
     *
     * @param jar the jar the build produced
     * @param report the check of that jar
     * @param installed where it was placed, or null when the report has errors (nothing was placed)
     * @param sameIdElsewhere other jars in the plugins folder that declare the same plugin id
     */
    public record Result(Path jar, PluginReport report, Path installed, List<Path> sameIdElsewhere) {
    }

    private final MavenBuild maven;

    public Pack() {
        this(new MavenBuild("mvn"));
    }

    Pack(MavenBuild maven) {
        this.maven = maven;
    }

    /**
     * Builds, checks and places the plugin.
     *
     * @param buildOutput receives Maven's output, line by line
     * @param onCancel registers an action to run when the caller is cancelled
     */
    public Result pack(Path module, Path dataDir, Path sdk, Consumer<String> buildOutput, Duration timeout,
            Consumer<Runnable> onCancel) throws KitException {
        Path dir = module.toAbsolutePath().normalize();
        if (!Files.isRegularFile(dir.resolve("pom.xml"))) {
            throw KitException.usage("no pom.xml in " + dir + ": give the folder of a plugin module (pi-host plugin"
                    + " scaffold writes one)");
        }
        Path api = Sdk.require(sdk);
        MavenBuild.Outcome build = maven.run(dir, List.of("-B", "-q", "-Dstyle.color=never",
                "-D" + Sdk.PROPERTY + "=" + api, "package"), buildOutput, timeout, onCancel);
        if (build.cancelled()) {
            throw new KitException(KitException.Kind.CANCELLED, "the build was cancelled", build.tail(), null);
        }
        if (build.timedOut()) {
            throw new KitException(KitException.Kind.TIMEOUT, "the build did not finish within "
                    + timeout.toSeconds() + " s", build.tail(), null);
        }
        if (!build.ok()) {
            throw KitException.failed("the build failed (mvn exit " + build.exitCode() + ")", build.tail(), null);
        }
        Path jar = builtJar(dir.resolve("target"));
        PluginReport report = PluginInspector.inspect(jar);
        if (!report.valid()) {
            return new Result(jar, report, null, List.of());
        }
        String id = report.descriptor().id();
        Path plugins = dataDir.resolve(PLUGINS);
        Path target = plugins.resolve(id + ".jar");
        try {
            place(jar, dataDir.resolve(STAGING), target);
        } catch (IOException e) {
            throw KitException.failed("could not place the jar in " + plugins + ": " + e, "", e);
        }
        return new Result(jar, report, target, sameId(plugins, target, id));
    }

    /** The newest jar directly in target/ whose manifest has the Pi-Plugin header. */
    static Path builtJar(Path target) throws KitException {
        List<Path> jars;
        try (Stream<Path> s = Files.list(target)) {
            jars = s.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p))
                    .filter(p -> header(p) != null).collect(Collectors.toList());
        } catch (IOException e) {
            jars = List.of();
        }
        return jars.stream().max(Comparator.comparing(Pack::modified))
                .orElseThrow(() -> KitException.usage("the build made no jar with a " + PluginInspector.HEADER
                        + " header in " + target + "; bnd.bnd must say '" + PluginInspector.HEADER + ": "
                        + PluginInspector.DEFAULT_DESCRIPTOR + "'"));
    }

    private static void place(Path jar, Path staging, Path target) throws IOException {
        Path data = staging.getParent();
        if (!Files.isDirectory(data)) {
            // as the host creates it: the data dir holds the audit trail and saved secrets
            Files.createDirectories(data, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
        }
        Files.createDirectories(staging);
        Files.createDirectories(target.getParent());
        Path part = staging.resolve(target.getFileName() + ".part");
        Files.copy(jar, part, StandardCopyOption.REPLACE_EXISTING);
        // both folders are under the data dir, so this is one rename on one file system
        Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Other jars in the plugins folder declaring the same id: the host would see the plugin twice. */
    private static List<Path> sameId(Path plugins, Path placed, String id) {
        List<Path> same = new ArrayList<>();
        try (Stream<Path> s = Files.list(plugins)) {
            for (Path p : s.sorted().collect(Collectors.toList())) {
                if (!p.equals(placed) && p.getFileName().toString().endsWith(".jar") && id.equals(declaredId(p))) {
                    same.add(p);
                }
            }
        } catch (IOException e) {
            // only a hint: a folder we cannot list has nothing to say
        }
        return same;
    }

    private static String declaredId(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            if (manifest == null) {
                return null;
            }
            return PluginInspector.inspect(manifest, path -> {
                ZipEntry e = file.getEntry(path);
                if (e == null) {
                    return null;
                }
                try (InputStream in = file.getInputStream(e)) {
                    return in.readAllBytes();
                }
            }).declaredId();
        } catch (IOException e) {
            return null;
        }
    }

    private static String header(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest m = file.getManifest();
            return m == null ? null : m.getMainAttributes().getValue(PluginInspector.HEADER);
        } catch (IOException e) {
            return null;
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
