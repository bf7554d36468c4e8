package pi.host.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The explicit bundle set: {@code bundles.list} in the assembly folder names every jar, in install order. */
final class BundleSet {

    private BundleSet() {
    }

    /** The listed jars; fails when the list is missing or names a jar that is not there. */
    static List<Path> read(Path assembly) throws IOException {
        Path list = assembly.resolve("bundles.list");
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
                throw new IOException("bundles.list names " + name + " but " + jar + " does not exist");
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
