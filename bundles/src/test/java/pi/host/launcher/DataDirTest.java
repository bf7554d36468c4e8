package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DataDirTest {

    @Test
    void optionWinsOverEnvironment() {
        assertThat(DataDir.resolve(Path.of("/tmp/a/../b"), Map.of("PI_HOST_DATA", "/x", "XDG_DATA_HOME", "/y")))
                .isEqualTo(Path.of("/tmp/b"));
    }

    @Test
    void piHostDataWinsOverXdg() {
        assertThat(DataDir.resolve(null, Map.of("PI_HOST_DATA", "/x", "XDG_DATA_HOME", "/y")))
                .isEqualTo(Path.of("/x"));
    }

    @Test
    void xdgDataHomeGetsAPiHostFolder() {
        assertThat(DataDir.resolve(null, Map.of("XDG_DATA_HOME", "/y"))).isEqualTo(Path.of("/y/pi-host"));
    }

    @Test
    void relativeXdgDataHomeIsIgnoredAsTheSpecSays() {
        assertThat(DataDir.resolve(null, Map.of("XDG_DATA_HOME", "rel")))
                .isEqualTo(Path.of(System.getProperty("user.home"), ".local", "share", "pi-host"));
    }
}
