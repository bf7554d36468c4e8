package pi.host.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pins issue 13.2 at the rule: every location inside the data dir but outside the session's own roots is host state. */
class HostStateTest {

    private static final Path DATA = Path.of("/home/u/.local/share/pi-host");
    private static final Path OWN = DATA.resolve("scratch/s_me");
    private final HostState exact = HostState.of(DATA, false);

    @Test
    void theDataDirAndEverythingInItIsHostState() {
        for (String p : List.of("", "pi-host.db", "agents/evil.md", "plugins/x.jar", "mcp.json", "skills/a/SKILL.md",
                "felix-cache/bundle1", "audit-journal/seg", "scratch", "scratch/s_other/x.txt", "worktrees/k/1/f")) {
            assertThat(exact.isHostState(DATA.resolve(p), List.of(OWN))).as(p).isTrue();
        }
    }

    @Test
    void theSessionsOwnRootsAreNot() {
        assertThat(exact.isHostState(OWN, List.of(OWN))).isFalse();
        assertThat(exact.isHostState(OWN.resolve("draft/x.py"), List.of(OWN))).isFalse();
        assertThat(exact.isHostState(DATA.resolve("scratch/s_me2/x"), List.of(OWN))).as("a longer id").isTrue();
    }

    @Test
    void neighboursOfTheDataDirAreNot() {
        assertThat(exact.isHostState(Path.of("/home/u/.local/share/pi-host2/x"), List.of(OWN))).isFalse();
        assertThat(exact.isHostState(Path.of("/home/u/.local/share"), List.of(OWN))).isFalse();
        assertThat(exact.isHostState(Path.of("/home/u/project/a.txt"), List.of(OWN))).isFalse();
    }

    @Test
    void onACaseInsensitiveFileSystemEveryCaseIsTheDataDir() {
        HostState folded = HostState.of(DATA, true);
        assertThat(folded.isHostState(Path.of("/HOME/u/.Local/Share/PI-HOST/agents/x.md"), List.of(OWN))).isTrue();
        assertThat(folded.isHostState(Path.of("/home/u/.local/share/PI-HOST/Scratch/S_ME/x"), List.of(OWN)))
                .as("its own scratch, in another case").isFalse();
        assertThat(folded.isHostState(Path.of("/home/u/.local/share/PI-HOST2/x"), List.of(OWN))).isFalse();
        assertThat(exact.isHostState(Path.of("/home/u/.local/share/PI-HOST/agents/x.md"), List.of(OWN)))
                .as("case-sensitive: another directory").isFalse();
    }

    @Test
    void aWalkOfADirectoryHoldingTheDataDirStaysOutOfIt() {
        assertThat(exact.walkExclusions(Path.of("/home/u"))).containsExactly(DATA);
        assertThat(exact.walkExclusions(Path.of("/"))).containsExactly(DATA);
        assertThat(exact.walkExclusions(OWN)).as("a walk inside its own scratch").isEmpty();
        assertThat(exact.walkExclusions(Path.of("/home/u/project"))).isEmpty();
    }

    @Test
    void theRealLocationIsGuardedWhateverSpellingStartedTheHost(@TempDir Path tmp) throws Exception {
        Path real = Files.createDirectories(tmp.resolve("real-data"));
        Path link = Files.createSymbolicLink(tmp.resolve("data-link"), real);
        HostState guard = new HostState(link);
        assertThat(guard.dataDir()).isEqualTo(real.toRealPath());
        assertThat(guard.isHostState(real.toRealPath().resolve("mcp.json"), List.of())).isTrue();
        assertThat(HostState.caseInsensitive(real.toRealPath()))
                .isEqualTo(Files.exists(Path.of(real.toRealPath().toString().toUpperCase())));
    }
}
