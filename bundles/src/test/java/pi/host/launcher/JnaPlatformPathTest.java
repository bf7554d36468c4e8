package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JnaPlatformPathTest {

    private String saved;

    @BeforeEach
    void save() {
        saved = System.getProperty(JnaPlatformPath.PROPERTY);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(JnaPlatformPath.PROPERTY);
        } else {
            System.setProperty(JnaPlatformPath.PROPERTY, saved);
        }
    }

    @Test
    void amd64GetsJnasDefaultsInJnasOrder() {
        assertThat(JnaPlatformPath.standardDirs("amd64", dir -> true)).isEqualTo(
                "/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu:/usr/lib64:/lib64:/usr/lib:/lib");
    }

    @Test
    void onlyFoldersThatExistAreGiven() {
        Set<Path> present = Set.of(Path.of("/usr/lib/aarch64-linux-gnu"), Path.of("/lib"));
        assertThat(JnaPlatformPath.standardDirs("aarch64", present::contains))
                .isEqualTo("/usr/lib/aarch64-linux-gnu:/lib");
    }

    @Test
    void anUnknownArchitectureKeepsThePlainFolders() {
        assertThat(JnaPlatformPath.standardDirs("sparc", dir -> true)).isEqualTo("/usr/lib:/lib");
        assertThat(JnaPlatformPath.standardDirs("sparc", dir -> false)).isEmpty();
    }

    @Test
    void aUsersValueIsLeftAlone() {
        System.setProperty(JnaPlatformPath.PROPERTY, "/opt/mine/lib");
        JnaPlatformPath.presetUnlessSet();
        assertThat(System.getProperty(JnaPlatformPath.PROPERTY)).isEqualTo("/opt/mine/lib");
    }

    @Test
    void onLinuxItIsSetAndLibcStillBinds() {
        assumeTrue(Platform.isLinux(), "the preset is for Linux only");
        System.clearProperty(JnaPlatformPath.PROPERTY);
        JnaPlatformPath.presetUnlessSet();
        String preset = System.getProperty(JnaPlatformPath.PROPERTY);
        assertThat(preset).isEqualTo(JnaPlatformPath.standardDirs(System.getProperty("os.arch"),
                java.nio.file.Files::isDirectory)).isNotEmpty();
        // what the host binds through JNA (Undumpable, the core's LibC, the tools' Posix and signals)
        assertThat(NativeLibrary.getProcess().getFunction("prctl")).isNotNull();
        assertThat(NativeLibrary.getInstance("c").getFunction("kill")).isNotNull();
        assertThat(NativeLibrary.getInstance(Platform.C_LIBRARY_NAME).getFunction("openat")).isNotNull();
    }
}
