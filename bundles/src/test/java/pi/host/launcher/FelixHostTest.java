package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's drop-in folder: created, FileInstall pointed at it, and its bundles kept across restarts. */
class FelixHostTest {

    @TempDir
    Path data;

    @Test
    void theDropInFolderIsCreatedAndFileInstallWatchesIt() throws Exception {
        Map<String, String> config = new HashMap<>();
        Path plugins = FelixHost.dropInFolder(data, config);
        assertThat(plugins).isEqualTo(data.resolve("plugins")).isDirectory();
        assertThat(config).containsEntry("felix.fileinstall.dir", plugins.toString())
                .containsEntry("felix.fileinstall.poll", "1000")
                .containsEntry("felix.fileinstall.noInitialDelay", "true")
                .containsEntry("felix.fileinstall.bundles.new.start", "true")
                .containsEntry("felix.fileinstall.log.default", "jul"); // never stdout: it belongs to the protocol
        assertThat("greet.jar").matches(config.get("felix.fileinstall.filter"));
        assertThat("greet.jar.part").doesNotMatch(config.get("felix.fileinstall.filter"));
    }

    @Test
    void aPropertyGivenByTheCallerWins() throws Exception {
        Map<String, String> config = new HashMap<>(Map.of("felix.fileinstall.poll", "250"));
        FelixHost.dropInFolder(data, config);
        assertThat(config).containsEntry("felix.fileinstall.poll", "250");
    }

    @Test
    void onlyBundlesFromTheDropInFolderAreDroppedIn() {
        Path plugins = data.resolve("plugins");
        assertThat(FelixHost.droppedIn(plugins.resolve("greet.jar").toUri().toString(), plugins)).isTrue();
        assertThat(FelixHost.droppedIn(data.resolve("bundle/pi.host.core.jar").toUri().toString(), plugins)).isFalse();
        assertThat(FelixHost.droppedIn(data.resolve("plugins-old/x.jar").toUri().toString(), plugins)).isFalse();
        assertThat(FelixHost.droppedIn("mvn:org.example/x/1.0", plugins)).isFalse();
        assertThat(FelixHost.droppedIn("not a uri", plugins)).isFalse();
    }
}
