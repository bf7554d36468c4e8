package pi.host.core.internal.origin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The launcher's record is the only source of host trust; without it the host does not start. */
class BundleOriginTest {

    /** Pins: with no record, every bundle (whatever its name) would have to be trusted or none silently. */
    @Test
    void aHostWithoutTheLaunchersRecordDoesNotActivate() {
        for (String record : new String[] {null, "", "  \n "}) {
            assertThatThrownBy(() -> BundleOrigin.of(record)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pi.host.distribution").hasMessageContaining("launcher");
        }
    }

    @Test
    void noBundleIsTheHostsWithoutOne() {
        BundleOrigin origin = BundleOrigin.of("file:/opt/pi-host/bundle/pi.host.core.jar");
        assertThat(origin.isHost(null)).isFalse();
        assertThat(origin.hostBundleName(null)).isNull();
    }
}
