package pi.host.it.plugin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * What plugin code did, as lines in a file per tool: the plugin writes (packaged into the plugin
 * bundles), the test reads (in its probe). A file because the two sides have different class
 * loaders; the folder comes from the system property Failsafe sets for the test bundles.
 */
public final class SideEffects {

    private SideEffects() {
    }

    private static Path file(String tool) {
        return Path.of(System.getProperty("pi.host.it.bundles"), "side-effects", tool + ".log");
    }

    /** Appends one line for {@code tool}. */
    public static void record(String tool, String line) {
        try {
            Path f = file(tool);
            Files.createDirectories(f.getParent());
            Files.writeString(f, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every line recorded for {@code tool}, oldest first. */
    public static List<String> of(String tool) {
        try {
            Path f = file(tool);
            return Files.exists(f) ? Files.readAllLines(f, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Forgets what {@code tool} did. */
    public static void clear(String tool) {
        try {
            Files.deleteIfExists(file(tool));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A marker file for {@code name} (the test creates it to release a waiting tool). */
    public static Path marker(String name) {
        return Path.of(System.getProperty("pi.host.it.bundles"), "side-effects", name + ".marker");
    }
}
