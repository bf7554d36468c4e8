package pi.host.core.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The walks that never follow a link: the chain check, removal, and the {@code .worktreeinclude} copy. */
class NoFollowTreeTest {

    @TempDir
    Path base;
    @TempDir
    Path elsewhere;

    /** Pins "a link anywhere on the chain is a link": the check never looks through it. */
    @Test
    void aLinkOnTheChainIsReportedAsALink() throws Exception {
        Files.createDirectories(base.resolve("a/b/c"));
        assertThat(NoFollowTree.chain(base, List.of("a", "b", "c"))).isEqualTo(NoFollowTree.Kind.DIRECTORY);
        Files.createDirectories(elsewhere.resolve("c"));
        Files.move(base.resolve("a/b"), elsewhere.resolve("b"));
        Files.createSymbolicLink(base.resolve("a/b"), elsewhere);
        assertThat(NoFollowTree.chain(base, List.of("a", "b", "c"))).isEqualTo(NoFollowTree.Kind.LINK);
        assertThat(NoFollowTree.chain(base, List.of("a", "gone"))).isEqualTo(NoFollowTree.Kind.MISSING);
    }

    /** Pins "removal never follows a link": a folder replaced by a link loses the link, its target stays. */
    @Test
    void removingUnlinksWithoutEnteringALink() throws Exception {
        Files.writeString(elsewhere.resolve("keep.txt"), "keep");
        Files.createDirectories(base.resolve("tree/inner"));
        Files.createSymbolicLink(base.resolve("tree/inner/out"), elsewhere);
        NoFollowTree.remove(base, List.of("tree"));
        assertThat(base.resolve("tree")).doesNotExist();
        Files.createSymbolicLink(base.resolve("swapped"), elsewhere);
        NoFollowTree.remove(base, List.of("swapped"));
        assertThat(Files.exists(base.resolve("swapped"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(Files.readString(elsewhere.resolve("keep.txt"))).isEqualTo("keep");
    }

    /**
     * Pins the include copy's no-follow rule on both sides: a link in the source is not read, a link in
     * the target (a checkout whose folder is a committed link) is not written through, a missing file is
     * no error.
     */
    @Test
    void theCopyFollowsNoLinkOnEitherSide() throws Exception {
        Path source = Files.createDirectories(base.resolve("source"));
        Path target = Files.createDirectories(base.resolve("target"));
        Files.createDirectories(source.resolve("conf"));
        Files.writeString(source.resolve("conf/.env"), "SECRET=1\n");
        Files.writeString(elsewhere.resolve("outside.env"), "outside\n");
        Files.createSymbolicLink(source.resolve("linked.env"), elsewhere.resolve("outside.env"));

        assertThat(NoFollowTree.copyFile(source, "conf/.env", target, 1024)).isEqualTo(9);
        assertThat(Files.readString(target.resolve("conf/.env"))).isEqualTo("SECRET=1\n");
        assertThat(NoFollowTree.copyFile(source, "linked.env", target, 1024)).isEqualTo(-1);
        assertThat(Files.exists(target.resolve("linked.env"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(NoFollowTree.copyFile(source, "missing.env", target, 1024)).isEqualTo(-1);

        Path other = Files.createDirectories(base.resolve("other"));
        Files.createSymbolicLink(other.resolve("conf"), elsewhere);
        assertThat(NoFollowTree.copyFile(source, "conf/.env", other, 1024)).isEqualTo(-1);
        assertThat(elsewhere.resolve(".env")).doesNotExist();
    }
}
