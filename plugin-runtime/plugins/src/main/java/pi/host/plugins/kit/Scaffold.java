package pi.host.plugins.kit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import pi.host.plugins.check.PluginDescriptor;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.PluginReport;
import pi.host.plugins.check.Problem;

/**
 * {@code plugin scaffold}: writes a ready Maven module for a new plugin into {@code <parent>/<id>}.
 * The rendered descriptor is checked by {@link PluginInspector} before anything is written (so a
 * bad id is reported with the validator's own words), and the module appears at once or not at all:
 * it is written to a hidden folder beside the target and then renamed.
 */
public final class Scaffold {

    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends",
            "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short",
            "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
            "void", "volatile", "while", "true", "false", "null", "var", "record", "yield", "sealed", "permits");

    /** What was written. */
    public record Result(Path module, String javaPackage, List<String> files) {
    }

    private Scaffold() {
    }

    /**
     * Writes the module. {@code sdk} is the folder of the api jar the pom will compile against.
     *
     * @throws KitException usage: the id is not a valid plugin id, the target exists and is not
     *     empty; failed: the sdk folder has no api jar, or writing failed (then nothing is left)
     */
    public static Result write(String id, Path parent, Path sdk) throws KitException {
        Path api = Sdk.require(sdk);
        String javaPackage = "org.example." + packageSegment(id);
        Map<String, String> files = Template.render(javaPackage, Map.of(
                "ID", id,
                "ID_SAFE", PluginDescriptor.safeId(id),
                "PACKAGE", javaPackage,
                "SDK", api.toString(),
                "API_VERSION", PluginInspector.API_VERSION));
        checkDescriptor(files.get(Template.DESCRIPTOR), javaPackage);
        Path module = parent.toAbsolutePath().normalize().resolve(id);
        if (Files.exists(module) && !emptyFolder(module)) {
            throw KitException.usage(module + " already exists and is not an empty folder; choose another --dir"
                    + " or remove it");
        }
        Path staging = module.resolveSibling("." + id + ".scaffold");
        try {
            Files.createDirectories(parent);
            deleteTree(staging);
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path file = staging.resolve(f.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, f.getValue(), StandardCharsets.UTF_8);
            }
            move(staging, module);
        } catch (IOException e) {
            try {
                deleteTree(staging);
            } catch (IOException ignored) {
                // the error below is what the author needs to see
            }
            throw KitException.failed("could not write " + module + ": " + e, "", e);
        }
        return new Result(module, javaPackage, new ArrayList<>(files.keySet()));
    }

    /** The id as one Java package segment: {@code git-info} → {@code git_info}; a keyword gets a trailing {@code _}. */
    static String packageSegment(String id) {
        String s = PluginDescriptor.safeId(id).toLowerCase(java.util.Locale.ROOT);
        if (s.isEmpty() || !Character.isJavaIdentifierStart(s.charAt(0))) {
            s = "p_" + s;
        }
        return KEYWORDS.contains(s) ? s + "_" : s;
    }

    /** The rendered descriptor as the host will see it in the built jar (the tool class counted as present). */
    private static void checkDescriptor(String descriptor, String javaPackage) throws KitException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", javaPackage);
        main.putValue("Bundle-Version", Template.VERSION);
        main.putValue(PluginInspector.HEADER, PluginInspector.DEFAULT_DESCRIPTOR);
        String toolClass = javaPackage.replace('.', '/') + "/" + Template.TOOL_CLASS + ".class";
        byte[] bytes = descriptor.getBytes(StandardCharsets.UTF_8);
        PluginReport report = PluginInspector.inspect(manifest, path -> path.equals(PluginInspector.DEFAULT_DESCRIPTOR)
                ? bytes : path.equals(toolClass) ? new byte[0] : null);
        if (!report.valid()) {
            throw KitException.usage("cannot scaffold this plugin id: " + report.errors().stream()
                    .map(Problem::what).collect(Collectors.joining("; ")));
        }
    }

    private static boolean emptyFolder(Path dir) throws KitException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            throw KitException.failed("cannot read " + dir + ": " + e, "", e);
        }
    }

    private static void move(Path staging, Path module) throws IOException {
        try {
            // rename(2) also replaces an empty folder
            Files.move(staging, module, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException | DirectoryNotEmptyException e) {
            throw new IOException("could not move the new module into place: " + e, e);
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(p);
            }
        }
    }
}
