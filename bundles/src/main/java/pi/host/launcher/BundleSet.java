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
 * server, which {@code serve --stdio} never loads. A line {@code start-level N} gives the jars after it
 * start level N (those before it have 1): the framework starts level 1, the host gives its first answer,
 * then the launcher raises the level (docs/performance-log.md). The jars of an optional set start at the
 * highest level of {@code bundles.list}.
 */
final class BundleSet {

    private BundleSet() {
    }

    /** Framework property: the optional sets to install and start, comma-separated names. */
    static final String SETS = "pi.host.bundleSets";

    /** Prefix of the line that gives the jars after it a start level. */
    static final String START_LEVEL = "start-level ";

    /** A listed jar and the start level it starts at. */
    record Entry(Path jar, int startLevel) {
    }

    /** The listed jars; fails when the list is missing or names a jar that is not there. */
    static List<Path> read(Path assembly) throws IOException {
        return jars(entries(assembly, null));
    }

    /** The jars of {@code bundles.list} and of the named optional sets with their start levels, in order. */
    static List<Entry> entries(Path assembly, String sets) throws IOException {
        List<Entry> entries = new ArrayList<>(readList(assembly, assembly.resolve("bundles.list"), 1));
        int last = entries.isEmpty() ? 1 : entries.get(entries.size() - 1).startLevel();
        for (String name : names(sets)) {
            entries.addAll(readList(assembly, assembly.resolve("bundles-" + name + ".list"), last));
        }
        return entries;
    }

    static List<Path> jars(List<Entry> entries) {
        List<Path> jars = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            jars.add(e.jar());
        }
        return jars;
    }

    /** The jars of {@code bundles.list}, then those of each named optional set, in order. */
    static List<Path> read(Path assembly, String sets) throws IOException {
        return jars(entries(assembly, sets));
    }

    /** The jars of every optional set in the assembly (kept in the bundle cache while unused). */
    static List<Path> optional(Path assembly) throws IOException {
        List<Path> jars = new ArrayList<>();
        try (java.util.stream.Stream<Path> lists = Files.list(assembly)) {
            for (Path list : (Iterable<Path>) lists.sorted()::iterator) {
                String file = list.getFileName().toString();
                if (file.startsWith("bundles-") && file.endsWith(".list")) {
                    jars.addAll(jars(readList(assembly, list, 1)));
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

    private static List<Entry> readList(Path assembly, Path list, int firstLevel) throws IOException {
        if (!Files.isRegularFile(list)) {
            throw new IOException("no bundle list at " + list + " (build with: mvn -B -DskipTests package)");
        }
        List<Entry> jars = new ArrayList<>();
        int level = firstLevel;
        for (String line : Files.readAllLines(list)) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            if (name.startsWith(START_LEVEL)) {
                level = startLevel(list, name.substring(START_LEVEL.length()).strip(), level);
                continue;
            }
            Path jar = assembly.resolve("bundle").resolve(name);
            if (!Files.isRegularFile(jar)) {
                throw new IOException(list.getFileName() + " names " + name + " but " + jar + " does not exist");
            }
            jars.add(new Entry(jar, level));
        }
        return jars;
    }

    private static int startLevel(Path list, String value, int current) throws IOException {
        int level;
        try {
            level = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IOException(list.getFileName() + ": not a start level: " + value);
        }
        if (level < current) {
            throw new IOException(list.getFileName() + ": start levels only rise (" + level + " after " + current + ")");
        }
        return level;
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
