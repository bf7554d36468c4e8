package pi.host.plugins.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The build PluginPack runs, with a stand-in {@code mvn} that reports what it was started with. */
@EnabledOnOs(OS.LINUX)
class MavenBuildTest {

    @TempDir
    Path dir;

    /**
     * Pins: PluginPack's Maven (the module's own build, a child of the host) gets a stdin that ends at
     * once and one pipe for its output, and no other descriptor of the host: not the RPC channel
     * (issue 12.1).
     */
    @Test
    void theBuildHasOnlyItsOwnPipes() throws Exception {
        Path listing = Files.writeString(dir.resolve("listing"), "for i in {0..1023}; do [[ -e /proc/$$/fd/$i ]]"
                + " && echo \"$i $(readlink /proc/$$/fd/$i)\"; done; read -r line; echo \"stdin-ended $?\"");
        Path mvn = dir.resolve("mvn");
        // bash -c, not a script file: a shell running a script keeps the file open (fd 255) itself
        Files.writeString(mvn, "#!/bin/sh\nexec /bin/bash -c \"$(cat '" + listing + "')\"\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwx------"));
        List<String> lines = new ArrayList<>();
        MavenBuild.Outcome o = new MavenBuild(mvn.toString()).run(dir, List.of("package"), lines::add,
                Duration.ofSeconds(30), action -> { });

        assertThat(o.ok()).as(o.tail()).isTrue();
        assertThat(lines).last().isEqualTo("stdin-ended 1"); // end of input at once: nothing to read, nothing waits
        Map<Integer, String> fds = new LinkedHashMap<>();
        for (String line : lines.subList(0, lines.size() - 1)) {
            String[] parts = line.split(" ", 2);
            fds.put(Integer.parseInt(parts[0]), parts[1]);
        }
        assertThat(fds.keySet()).containsExactly(0, 1, 2);
        assertThat(fds.get(0)).startsWith("pipe:[").isNotEqualTo(fds.get(1));
        assertThat(fds.get(1)).startsWith("pipe:[").isEqualTo(fds.get(2)); // stdout and stderr merged
        for (int fd = 0; fd <= 2; fd++) { // none is this JVM's own stdin, stdout or stderr
            assertThat(fds.values()).doesNotContain(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString());
        }
    }
}
