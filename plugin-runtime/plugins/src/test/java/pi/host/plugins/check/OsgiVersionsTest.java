package pi.host.plugins.check;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OsgiVersionsTest {

    private static final int[] V020 = {0, 2, 0};

    @Test
    void parsesOneToFourParts() {
        assertThat(OsgiVersions.parse("1")).containsExactly(1, 0, 0);
        assertThat(OsgiVersions.parse("1.2")).containsExactly(1, 2, 0);
        assertThat(OsgiVersions.parse("1.2.3")).containsExactly(1, 2, 3);
        assertThat(OsgiVersions.parse("1.2.3.beta-1_x")).containsExactly(1, 2, 3);
    }

    @Test
    void refusesWhatIsNotAnOsgiVersion() {
        for (String bad : new String[] {"", "v1", "1.", "1.2.3-SNAPSHOT", "01.0", "1.2.3.4.5", "1.2.3.a b"}) {
            assertThat(OsgiVersions.parse(bad)).as(bad).isNull();
        }
    }

    @Test
    void rangesIncludeTheirBoundsAsBracketed() {
        assertThat(OsgiVersions.includes("[0.2,1)", V020)).isTrue();
        assertThat(OsgiVersions.includes("(0.2,1)", V020)).isFalse();
        assertThat(OsgiVersions.includes("[0.1,0.2)", V020)).isFalse();
        assertThat(OsgiVersions.includes("[0.1,0.2]", V020)).isTrue();
        assertThat(OsgiVersions.includes("0.2", V020)).isTrue();
        assertThat(OsgiVersions.includes("0.3", V020)).isFalse();
        assertThat(OsgiVersions.includes("[x,1)", V020)).isFalse();
    }
}
