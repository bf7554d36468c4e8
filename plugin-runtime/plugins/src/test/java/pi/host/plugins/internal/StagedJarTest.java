package pi.host.plugins.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.plugins.check.TestJar;

/** A drop-in is copied once and read within bounds: nothing in a jar makes the host allocate without limit. */
class StagedJarTest {

    @TempDir
    Path dir;

    private Path staging() {
        return dir.resolve("staging");
    }

    private StagedJar.Unreadable refusal(Path file) {
        try {
            StagedJar.stage(file, staging()).close();
        } catch (StagedJar.Unreadable e) {
            return e;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("staged " + file);
    }

    private void assertNoCopyLeft() throws IOException {
        try (var left = Files.list(staging())) {
            assertThat(left).as("the staged copy is deleted").isEmpty();
        }
    }

    @Test
    void aGoodJarIsReadFromItsCopyAndTheCopyGoesWithIt() throws Exception {
        Path file = TestJar.plugin().descriptor("{}").write(dir.resolve("good.jar"));
        try (StagedJar jar = StagedJar.stage(file, staging())) {
            Files.delete(file); // what is checked and installed is the copy
            assertThat(jar.manifest().getMainAttributes().getValue("Pi-Plugin")).isEqualTo("META-INF/pi-plugin.json");
            assertThat(new String(jar.entries().read("META-INF/pi-plugin.json"), StandardCharsets.UTF_8)).isEqualTo("{}");
            assertThat(jar.entries().read("no/such/entry")).isNull();
            try (var in = jar.open()) {
                assertThat(in.readAllBytes()).isNotEmpty();
            }
        }
        assertNoCopyLeft();
    }

    /** Pins: a drop-in larger than any plugin could make the host read it whole. */
    @Test
    void aFileOverSixtyFourMibIsRefusedWithoutReadingItAll() throws Exception {
        Path file = dir.resolve("big.jar");
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(StagedJar.MAX_JAR_MIB * 1024L * 1024L + 1); // sparse: costs no disk
        }
        assertThat(refusal(file).problem().what()).contains("at most 64 MiB");
        assertNoCopyLeft();
    }

    @Test
    void aFileThatIsNotAZipIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("corrupt.jar"), "PK\u0003\u0004 no zip");
        assertThat(refusal(file).problem().what()).contains("not a readable jar");
        assertNoCopyLeft();
    }

    @Test
    void aZipWithoutManifestIsRefused() throws Exception {
        Path file = dir.resolve("plain.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
            zip.putNextEntry(new ZipEntry("a.txt"));
            zip.closeEntry();
        }
        assertThat(refusal(file).problem().what()).contains("no manifest");
        assertNoCopyLeft();
    }

    /** Pins: a huge manifest (it compresses to almost nothing) was parsed whole by the framework. */
    @Test
    void aManifestOverItsBoundIsRefused() throws Exception {
        Path file = TestJar.plugin().header("X-Padding", "x".repeat(StagedJar.MAX_MANIFEST_KIB * 1024))
                .descriptor("{}").write(dir.resolve("huge.jar"));
        assertThat(Files.size(file)).isLessThan(64 * 1024);
        assertThat(refusal(file).problem().what()).contains("the manifest is larger than 512 KiB");
        assertNoCopyLeft();
    }

    /** Pins: an entry that inflates without bound (a zip bomb) was read whole. */
    @Test
    void anEntryInflatingPastItsBoundIsNotReadWhole() throws Exception {
        byte[] bomb = new byte[Bounded.MAX_ENTRY_BYTES + 1];
        Path file = TestJar.plugin().entry("META-INF/pi-plugin.json", bomb).write(dir.resolve("bomb.jar"));
        try (StagedJar jar = StagedJar.stage(file, staging())) {
            assertThatThrownBy(() -> jar.entries().read("META-INF/pi-plugin.json")).isInstanceOf(IOException.class)
                    .hasMessageContaining("larger than 32 MiB");
        }
    }
}
