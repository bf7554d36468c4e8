package pi.host.core.internal.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins issue 13.1 at the grant store: an allow-session answer covers exactly what its card showed, nothing wider. */
class SessionGrantsTest {

    private final SessionGrants grants = new SessionGrants();

    private static GrantScope outside(String tool, String path, boolean below) {
        return new GrantScope(tool, false, List.of(new GrantScope.Area(Path.of(path), below)));
    }

    @Test
    void grantsArePerSessionAndPerToolName() {
        grants.grant("s1", GrantScope.roots("Bash"));
        assertThat(grants.covers("s1", GrantScope.roots("Bash"))).isTrue();
        assertThat(grants.covers("s1", GrantScope.roots("Write"))).isFalse();
        assertThat(grants.covers("s2", GrantScope.roots("Bash"))).as("never seen by another session").isFalse();
        grants.sessionDeleted("s1");
        assertThat(grants.covers("s1", GrantScope.roots("Bash"))).isFalse();
    }

    /** The hole: one allow-session on a workspace Write let later Writes to ~/.bashrc through. */
    @Test
    void anInRootGrantNeverCoversAnOutsidePath() {
        grants.grant("s", GrantScope.roots("Write"));
        assertThat(grants.covers("s", GrantScope.roots("Write"))).isTrue();
        assertThat(grants.covers("s", outside("Write", "/home/u/.bashrc", false))).isFalse();
        assertThat(grants.covers("s", outside("Write", "/home/u/.ssh/authorized_keys", false))).isFalse();
        assertThat(grants.covers("s", new GrantScope("Write", true,
                List.of(new GrantScope.Area(Path.of("/home/u/.bashrc"), false))))).as("mixed call").isFalse();
    }

    /** The hole: an allow-session on one outside Read covered every outside file. */
    @Test
    void anOutsideFileGrantCoversThatCanonicalPathOnly() {
        grants.grant("s", outside("Read", "/etc/hostname", false));
        assertThat(grants.covers("s", outside("Read", "/etc/hostname", false))).isTrue();
        assertThat(grants.covers("s", outside("Read", "/etc/hosts", false))).isFalse();
        assertThat(grants.covers("s", outside("Read", "/etc/hostname.bak", false))).as("not a string prefix").isFalse();
        assertThat(grants.covers("s", outside("Read", "/etc/hostname/x", false))).isFalse();
        assertThat(grants.covers("s", outside("Read", "/etc", true))).isFalse();
        assertThat(grants.covers("s", outside("Grep", "/etc/hostname", false))).as("another tool").isFalse();
        assertThat(grants.covers("s", GrantScope.roots("Read"))).as("nor the roots").isFalse();
    }

    @Test
    void aDirectoryGrantCoversWhatIsBelowItAndNothingBeside() {
        grants.grant("s", outside("Grep", "/srv/keys", true));
        assertThat(grants.covers("s", outside("Grep", "/srv/keys", true))).isTrue();
        assertThat(grants.covers("s", outside("Grep", "/srv/keys/a/b", true))).isTrue();
        assertThat(grants.covers("s", outside("Grep", "/srv/keys/id_rsa", false))).isTrue();
        assertThat(grants.covers("s", outside("Grep", "/srv/keys2", true))).isFalse();
        assertThat(grants.covers("s", outside("Grep", "/srv", true))).isFalse();
    }

    @Test
    void aFileGrantDoesNotCoverASearchOfTheTreeAtTheSameName() {
        grants.grant("s", outside("Grep", "/srv/a.txt", false));
        assertThat(grants.covers("s", outside("Grep", "/srv/a.txt", true))).isFalse();
    }

    @Test
    void grantsAddUp() {
        grants.grant("s", outside("Read", "/a", false));
        grants.grant("s", outside("Read", "/b", false));
        grants.grant("s", GrantScope.roots("Read"));
        assertThat(grants.covers("s", new GrantScope("Read", true, List.of(new GrantScope.Area(Path.of("/a"), false),
                new GrantScope.Area(Path.of("/b"), false))))).isTrue();
        assertThat(grants.covers("s", outside("Read", "/c", false))).isFalse();
    }

    @Test
    void aScopeNamesTheRootsOrSomePaths() {
        assertThatThrownBy(() -> new GrantScope("Read", false, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GrantScope.Area(Path.of("rel"), false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCardSaysWhatTheGrantCovers() {
        assertThat(outside("Read", "/etc/hostname", false).text()).contains("/etc/hostname only");
        assertThat(outside("Glob", "/etc", true).text()).contains("/etc and below it");
        assertThat(GrantScope.roots("Write").text()).contains("inside the session's roots");
        GrantScope.Wire w = outside("Read", "/etc/hostname", false).wire();
        assertThat(w.inRoots()).isFalse();
        assertThat(w.paths()).containsExactly(new GrantScope.WirePath("/etc/hostname", false));
    }

    /** Pins the rug pull: a grant covers the definition it was given for, and is dropped for another one. */
    @Test
    void aGrantForAnotherDefinitionIsDropped() {
        SessionGrants grants = new SessionGrants();
        grants.grant("s1", GrantScope.roots("mcp_x_t"), "sha256:one");
        assertThat(grants.dropIfRedefined("s1", "mcp_x_t", "sha256:one")).isFalse();
        assertThat(grants.coversRoots("s1", "mcp_x_t")).isTrue();
        assertThat(grants.dropIfRedefined("s1", "mcp_x_t", "sha256:two")).as("the definition changed").isTrue();
        assertThat(grants.coversRoots("s1", "mcp_x_t")).isFalse();
        assertThat(grants.dropIfRedefined("s1", "mcp_x_t", "sha256:one")).as("gone, even if the old definition comes back")
                .isFalse();
        assertThat(grants.coversRoots("s1", "mcp_x_t")).isFalse();
        grants.grant("s1", GrantScope.roots("mcp_x_t"), "sha256:two");
        assertThat(grants.coversRoots("s1", "mcp_x_t")).isTrue();
        assertThat(grants.dropIfRedefined("s1", "mcp_x_t", null)).isTrue();
        assertThat(grants.coversRoots("s1", "mcp_x_t")).isFalse();
    }

    /** Granting the same definition again keeps the grant; a tool without a definition hash is never redefined. */
    @Test
    void theSameDefinitionKeepsItsGrant() {
        SessionGrants grants = new SessionGrants();
        grants.grant("s1", GrantScope.roots("mcp_x_t"), "sha256:one");
        grants.grant("s1", GrantScope.roots("mcp_x_t"), "sha256:one");
        assertThat(grants.coversRoots("s1", "mcp_x_t")).isTrue();
        grants.grant("s1", GrantScope.roots("Read"));
        assertThat(grants.dropIfRedefined("s1", "Read", null)).as("a builtin has no definition hash").isFalse();
        assertThat(grants.coversRoots("s1", "Read")).isTrue();
    }
}
