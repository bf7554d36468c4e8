package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;

class SessionResolversTest {

    @TempDir
    Path dir;

    private final SessionResolvers resolvers = new SessionResolvers();

    @Test
    void aSessionKeepsItsResolverUntilItIsDeleted() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Path scratch = dir.resolve("data/scratch/s1");
        var first = resolvers.of("s1", ws, scratch);
        assertThat(resolvers.of("s1", ws, scratch)).isSameAs(first);
        assertThat(resolvers.of("s2", ws, dir.resolve("data/scratch/s2"))).isNotSameAs(first);
        resolvers.sessionDeleted("s1");
        assertThat(resolvers.of("s1", ws, scratch)).isNotSameAs(first);
    }

    @Test
    void aWorkspaceThatIsGoneIsRefusedAtTheNextCallAsBefore() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        resolvers.of("s1", ws, dir.resolve("scratch"));
        Files.delete(ws);
        assertThatThrownBy(() -> resolvers.of("s1", ws, dir.resolve("scratch")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an existing directory");
    }

    @Test
    void aWorkspaceSwappedForALinkElsewhereIsNotFollowed() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "mine");
        resolvers.of("s1", ws, dir.resolve("scratch"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("a.txt"), "not the workspace's");
        Files.move(ws, dir.resolve("ws-old"));
        Files.createSymbolicLink(ws, elsewhere);

        var resolution = resolvers.of("s1", ws, dir.resolve("scratch")).resolve("a.txt", PathKind.EXISTING_FILE);
        assertThat(resolution.path().root()).isEqualTo(ResolvedPath.Root.EXTERNAL);
        assertThat(resolution.outside()).isTrue();
    }
}
