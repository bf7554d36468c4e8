package pi.host.core.internal.approval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SessionGrantsTest {

    @Test
    void grantsArePerSessionAndPerToolName() {
        SessionGrants grants = new SessionGrants();
        grants.grant("s1", "Bash");
        assertThat(grants.has("s1", "Bash")).isTrue();
        assertThat(grants.has("s1", "Write")).isFalse();
        assertThat(grants.has("s2", "Bash")).as("never seen by another session").isFalse();
        grants.sessionDeleted("s1");
        assertThat(grants.has("s1", "Bash")).isFalse();
    }

    /** Pins the rug pull: a grant covers the definition it was given for, and is dropped for another one. */
    @Test
    void aGrantForAnotherDefinitionIsDropped() {
        SessionGrants grants = new SessionGrants();
        grants.grant("s1", "mcp_x_t", "sha256:one");
        assertThat(grants.lookup("s1", "mcp_x_t", "sha256:one")).isEqualTo(SessionGrants.Grant.GRANTED);
        assertThat(grants.lookup("s1", "mcp_x_t", "sha256:two")).isEqualTo(SessionGrants.Grant.DEFINITION_CHANGED);
        assertThat(grants.lookup("s1", "mcp_x_t", "sha256:one")).as("gone, even if the old definition comes back")
                .isEqualTo(SessionGrants.Grant.NONE);
        grants.grant("s1", "mcp_x_t", "sha256:two");
        assertThat(grants.lookup("s1", "mcp_x_t", "sha256:two")).isEqualTo(SessionGrants.Grant.GRANTED);
        assertThat(grants.lookup("s1", "mcp_x_t", null)).isEqualTo(SessionGrants.Grant.DEFINITION_CHANGED);
    }
}
