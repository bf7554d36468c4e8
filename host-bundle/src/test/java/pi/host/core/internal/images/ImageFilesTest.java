package pi.host.core.internal.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.fs.FilesComponent;
import pi.host.core.internal.json.Json;
import pi.host.spi.PinnedFiles;

/** What images.resolve may hand back: files the client made below the session's scratch dir, nothing else. */
class ImageFilesTest {

    @TempDir
    Path tmp;

    private PinnedFiles files;
    private Path scratch;
    private Path outside;

    @BeforeEach
    void folders() throws IOException {
        files = FilesComponent.load(tmp.resolve("atomic-writes"));
        scratch = Files.createDirectories(tmp.resolve("data/scratch/s1")).toRealPath();
        outside = Files.createDirectories(tmp.resolve("outside")).toRealPath();
    }

    private static JsonNode images(String... paths) {
        ArrayNode a = Json.mapper().createArrayNode();
        for (String p : paths) {
            a.addObject().put("path", p).put("mimeType", "image/png");
        }
        return a;
    }

    @Test
    void filesBelowTheScratchDirAreTakenWithTheirSizes() throws Exception {
        Path png = Files.write(Files.createDirectories(scratch.resolve("images")).resolve("cat.png"), new byte[123]);
        assertThat(ImageFiles.check(files, scratch, images(png.toString()))).singleElement().satisfies(i -> {
            assertThat(i.path()).isEqualTo(png.toString());
            assertThat(i.bytes()).isEqualTo(123);
            assertThat(i.mimeType()).isEqualTo("image/png");
        });
    }

    /** Pins the confinement of attachment paths: nothing outside the scratch dir, and no link inside it. */
    @Test
    void pathsOutsideTheScratchDirOrThroughALinkAreRefused() throws Exception {
        Path secret = Files.writeString(outside.resolve("id_rsa"), "KEY");
        Files.createSymbolicLink(scratch.resolve("key.png"), secret);
        Files.createSymbolicLink(scratch.resolve("dir"), outside);
        Files.writeString(outside.resolve("b.png"), "b");
        Path sibling = Files.createDirectories(scratch.resolveSibling("s2")).resolve("other.png");
        Files.write(sibling, new byte[1]);
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(secret.toString())))
                .hasMessageContaining("is not a file below the session's scratch dir");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(sibling.toString())))
                .as("another session's scratch").hasMessageContaining("is not a file below the session's scratch dir");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(scratch + "/../s2/other.png")))
                .hasMessageContaining("is not an absolute, normalized path");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(scratch.resolve("key.png").toString())))
                .hasMessageContaining("is not a regular file");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(scratch.resolve("dir/b.png").toString())))
                .hasMessageContaining("cannot be checked without following a link");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images("images/cat.png")))
                .hasMessageContaining("is not an absolute, normalized path");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(scratch.toString())))
                .hasMessageContaining("is not a file below");
    }

    @Test
    void theAnswerIsBounded() throws Exception {
        Path one = Files.write(scratch.resolve("a.png"), new byte[1]);
        String[] seventeen = new String[17];
        java.util.Arrays.fill(seventeen, one.toString());
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(seventeen))).hasMessageContaining("1 to 16");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images())).hasMessageContaining("1 to 16");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(one.toString(), one.toString())))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, images(scratch.resolve("missing.png").toString())))
                .hasMessageContaining("does not exist");
        JsonNode badType = Json.mapper().readTree("[{\"path\":\"" + one + "\",\"mimeType\":\"text/html\"}]");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, badType)).hasMessageContaining("mimeType");
        JsonNode longPath = Json.mapper().readTree("[{\"path\":\"/" + "a".repeat(5000) + "\"}]");
        assertThatThrownBy(() -> ImageFiles.check(files, scratch, longPath)).hasMessageContaining("4096");
    }
}
