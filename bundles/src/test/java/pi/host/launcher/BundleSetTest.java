package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleSetTest {

    @TempDir
    Path assembly;

    private void jars(String... names) throws IOException {
        Files.createDirectories(assembly.resolve("bundle"));
        for (String n : names) {
            Files.writeString(assembly.resolve("bundle").resolve(n), "");
        }
    }

    /** Pins: an optional set is installed only when asked for, after bundles.list, and is known for the cache either way. */
    @Test
    void optionalSetsAreAddedOnlyWhenAskedFor() throws IOException {
        jars("a.jar", "b.jar", "x.jar");
        Files.writeString(assembly.resolve("bundles.list"), "# main\na.jar\nb.jar\n");
        Files.writeString(assembly.resolve("bundles-mcp.list"), "x.jar\n");
        Path bundle = assembly.resolve("bundle");
        assertThat(BundleSet.read(assembly, null)).containsExactly(bundle.resolve("a.jar"), bundle.resolve("b.jar"));
        assertThat(BundleSet.read(assembly, "mcp")).containsExactly(bundle.resolve("a.jar"), bundle.resolve("b.jar"),
                bundle.resolve("x.jar"));
        assertThat(BundleSet.optional(assembly)).isEqualTo(List.of(bundle.resolve("x.jar")));
        assertThatThrownBy(() -> BundleSet.read(assembly, "nosuch")).hasMessageContaining("bundles-nosuch.list");
    }
}
