package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ToolResult;

class WriteToolTest {

    @TempDir
    Path tmp;
    Fixture fx;

    @BeforeEach
    void setUp() throws Exception {
        fx = new Fixture(tmp);
    }

    @Test
    void createsParentsReturnsThePostWriteTagAndEveryLineIsDisplayed() throws Exception {
        ToolResult r = fx.write("d/e/new.txt", "a\nb\n");
        assertThat(r.ok()).isTrue();
        assertThat(fx.content("d/e/new.txt")).isEqualTo("a\nb\n");
        assertThat(Fixture.tag(r)).isEqualTo(Tags.tag(Tags.digest("a\nb\n".getBytes())));
        assertThat(fx.edit("d/e/new.txt", Fixture.tag(r), "PUT 2.=2:\n+B").ok()).isTrue();
        assertThat(fx.content("d/e/new.txt")).isEqualTo("a\nB\n");
    }

    @Test
    void keepsModeBitsAndRecordsAddedThenModified() throws Exception {
        fx.write("x.sh", "#!/bin/sh\n");
        assertThat(fx.lastReview.get(0)).containsEntry("status", "added").containsEntry("operation", "write");
        Files.setPosixFilePermissions(fx.ws.resolve("x.sh"), PosixFilePermissions.fromString("rwxr-x---"));
        fx.write("x.sh", "#!/bin/sh\necho\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fx.ws.resolve("x.sh"))))
                .isEqualTo("rwxr-x---");
        assertThat(fx.lastReview.get(0)).containsEntry("status", "modified").containsEntry("additions", 1);
    }

    @Test
    void aHardLinkedTargetIsReplacedNeverWrittenThrough() throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "secret\n");
        Files.createLink(fx.ws.resolve("link.txt"), outside);
        assertThat(fx.write("link.txt", "mine\n").ok()).isTrue();
        assertThat(Files.readString(outside)).isEqualTo("secret\n");
        assertThat(fx.content("link.txt")).isEqualTo("mine\n");
    }

    @Test
    void scratchWritesGetNoReviewRecord() throws Exception {
        ToolResult r = fx.write(fx.scratch.resolve("n.txt").toString(), "x");
        assertThat(r.ok()).isTrue();
        assertThat(fx.lastReview).isEmpty();
    }

    @Test
    void aParentSwappedForALinkAfterResolutionIsDeniedAndNothingLandsOutside() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        ToolResult r = fx.runAfter("d/new.txt", () -> Files.createSymbolicLink(fx.ws.resolve("d"), outside),
                "content", "x");
        assertThat(r.errorCode()).isEqualTo(pi.host.api.ErrorCode.TOOL_DENIED);
        assertThat(r.text().get(0)).contains("the path changed after it was checked").contains("symbolic link");
        assertThat(outside).isEmptyDirectory();
    }
}
