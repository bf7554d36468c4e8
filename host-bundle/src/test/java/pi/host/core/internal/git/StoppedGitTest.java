package pi.host.core.internal.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host git command stopped at its timeout is killed before its children, so it runs nothing more (the class:
 * a process tree killed children first, whose parent runs its next step between the kills; docs/security.md,
 * "Stopping a process tree"). The stand-in for git waits for the first of its twenty children to end and then
 * writes a line: killed children first, it writes it while the other nineteen are being killed.
 */
class StoppedGitTest {

    @TempDir
    Path bin;
    @TempDir
    Path dir;

    @Test
    void aGitStoppedAtItsTimeoutIsKilledBeforeItsChildrenSoItRunsNothingMore() throws Exception {
        Path git = bin.resolve("git");
        Files.writeString(git, """
                #!/bin/bash
                for i in $(seq 20); do sleep 60 & done
                echo started
                wait -n
                echo the parent ran on
                """);
        Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwxr-xr-x"));
        HardenedGit hardened = new HardenedGit(Map.of("PATH", bin + ":/usr/bin:/bin", "HOME", dir.toString()));
        for (int round = 0; round < 5; round++) {
            GitResult r = hardened.run(dir, List.of(), null, null, Duration.ofMillis(700), List.of("status"));
            assertThat(r.timedOut()).as("round %d: %s", round, r).isTrue();
            assertThat(r.stdout()).as("round %d", round).contains("started").doesNotContain("the parent ran on");
        }
    }
}
