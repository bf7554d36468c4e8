package org.example.gitinfo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.testkit.FakeToolCall;

/**
 * Pins the kill order of a git run that is stopped (the class: a process tree killed children first, whose
 * parent runs its next step between the two kills; docs/security.md, "Stopping a process tree"). The
 * stand-in for git waits for the first of its twenty children to end and then writes a line: killed
 * children first, it writes it while the other nineteen are being killed; killed first, it cannot.
 */
class GitRunnerKillTest {

    @TempDir
    Path repo;
    @TempDir
    Path bin;

    @Test
    void aStoppedGitIsKilledBeforeItsChildrenSoItRunsNothingMore() throws Exception {
        Path git = bin.resolve("git");
        Files.writeString(git, """
                #!/bin/bash
                for i in $(seq 20); do sleep 60 & done
                echo started
                wait -n
                echo the parent ran on
                """);
        Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwxr-xr-x"));
        GitRunner runner = new GitRunner(git.toString());
        for (int round = 0; round < 5; round++) {
            GitRunner.Outcome o = runner.run(new FakeToolCall(repo, Map.of(), Duration.ofMillis(1500)), List.of("status"),
                    List.of());
            assertTrue(o.timedOut(), o::toString);
            assertTrue(o.stdout().contains("started"), o::toString);
            assertFalse(o.stdout().contains("the parent ran on"), "round " + round + ": " + o);
        }
    }
}
