package pi.host.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The explicit bundle set: {@code bundles.list} in the assembly folder names every jar, in install order.
 * An optional set {@code bundles-NAME.list} names jars that are installed and started only when a
 * command asks for the set (framework property {@value #SETS}), such as the MCP front and its HTTP
 * server, which {@code serve --stdio} never loads.
 */
final class BundleSet {

    private BundleSet() {
    }

    /** Framework property: the optional sets to install and start, comma-separated names. */
    static final String SETS = "pi.host.bundleSets";

    /** The listed jars; fails when the list is missing or names a jar that is not there. */
    static List<Path> read(Path assembly) throws IOException {
        return readList(assembly, assembly.resolve("bundles.list"));
    }

    /** The jars of {@code bundles.list}, then those of each named optional set, in order. */
    static List<Path> read(Path assembly, String sets) throws IOException {
        List<Path> jars = new ArrayList<>(read(assembly));
        for (String name : names(sets)) {
            jars.addAll(readList(assembly, assembly.resolve("bundles-" + name + ".list")));
        }
        return jars;
    }

    /** The jars of every optional set in the assembly (kept in the bundle cache while unused). */
    static List<Path> optional(Path assembly) throws IOException {
        List<Path> jars = new ArrayList<>();
        try (java.util.stream.Stream<Path> lists = Files.list(assembly)) {
            for (Path list : (Iterable<Path>) lists.sorted()::iterator) {
                String file = list.getFileName().toString();
                if (file.startsWith("bundles-") && file.endsWith(".list")) {
                    jars.addAll(readList(assembly, list));
                }
            }
        }
        return jars;
    }

    private static List<String> names(String sets) {
        List<String> names = new ArrayList<>();
        if (sets != null) {
            for (String n : sets.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.strip());
                }
            }
        }
        return names;
    }

    private static List<Path> readList(Path assembly, Path list) throws IOException {
        if (!Files.isRegularFile(list)) {
            throw new IOException("no bundle list at " + list + " (build with: mvn -B -DskipTests package)");
        }
        List<Path> jars = new ArrayList<>();
        for (String line : Files.readAllLines(list)) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            Path jar = assembly.resolve("bundle").resolve(name);
            if (!Files.isRegularFile(jar)) {
                throw new IOException(list.getFileName() + " names " + name + " but " + jar + " does not exist");
            }
            jars.add(jar);
        }
        return jars;
    }

    /** The assembly folder: {@code pi-host/} beside the launcher jar. */
    static Path assemblyDir() {
        try {
            Path jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.getParent().resolve("pi-host");
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
