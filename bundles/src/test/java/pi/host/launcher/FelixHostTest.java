package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's drop-in folder and its record of the distribution. */
class FelixHostTest {

    @TempDir
    Path data;

    @Test
    void theDropInFolderIsCreatedAndThePluginRuntimeWatchesIt() throws Exception {
        Map<String, String> config = new HashMap<>();
        Path plugins = FelixHost.dropInFolder(data, config);
        assertThat(plugins).isEqualTo(data.resolve("plugins")).isDirectory();
        assertThat(config).containsEntry(FelixHost.PLUGINS_DIR, plugins.toString())
                .containsEntry(FelixHost.PLUGINS_POLL, "1000")
                .doesNotContainKey("felix.fileinstall.dir");
    }

    @Test
    void aPropertyGivenByTheCallerWins() throws Exception {
        Map<String, String> config = new HashMap<>(Map.of(FelixHost.PLUGINS_POLL, "250"));
        FelixHost.dropInFolder(data, config);
        assertThat(config).containsEntry(FelixHost.PLUGINS_POLL, "250");
    }

    @Test
    void theRecordNamesEveryListedJarByTheLocationItIsInstalledFrom() {
        Path a = data.resolve("bundle/pi.host.core.jar");
        Path b = data.resolve("a folder, with spaces/pi.host.tools.jar");
        String record = DistributionRecord.of(List.of(a, b));
        assertThat(record.split(" ")).containsExactly(a.toUri().toString(), b.toUri().toString());
        assertThat(DistributionRecord.location(b)).isEqualTo(b.toUri().toString()).doesNotContain(" ");
    }
}
