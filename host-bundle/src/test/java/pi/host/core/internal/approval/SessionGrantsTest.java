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
}
