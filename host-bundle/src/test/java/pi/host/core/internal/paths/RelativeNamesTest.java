package pi.host.core.internal.paths;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RelativeNamesTest {

    @Test
    void theNamesBelowAFolderAreTheTextAfterItsOwn() {
        assertThat(RelativeNames.of(Path.of("/w/project"), Path.of("/w/project/src/a.txt"))).isEqualTo("src/a.txt");
        assertThat(RelativeNames.of(Path.of("/w/project"), Path.of("/w/project/a.txt"))).isEqualTo("a.txt");
    }

    @Test
    void belowTheRootTheyAreTheTextAfterItsSlash() {
        assertThat(RelativeNames.of(Path.of("/"), Path.of("/etc/hosts"))).isEqualTo("etc/hosts");
    }

    @Test
    void aNameStartingWithADotGoesThroughRelativizeWhichNormalizes() {
        assertThat(RelativeNames.of(Path.of("/w"), Path.of("/w/.git/config"))).isEqualTo(".git/config");
        assertThat(RelativeNames.of(Path.of("/w"), Path.of("/w/a/./b"))).isEqualTo("a/b");
        assertThat(RelativeNames.of(Path.of("/w/.cache"), Path.of("/w/.cache/x/y"))).isEqualTo("x/y");
    }
}
