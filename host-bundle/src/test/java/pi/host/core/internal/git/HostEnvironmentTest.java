package pi.host.core.internal.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins spec §4e's environment rule: no variable of the host's environment that redirects git or
 * injects configuration or programs reaches a host-run git command. Each vector first does its work
 * under plain git with the same environment, then nothing under {@link HardenedGit}.
 */
class HostEnvironmentTest {

    @TempDir
    Path tmp;

    /** Pins: none of git's own list of repository-local variables, nor any other GIT_* or PAGER, reaches git. */
    @Test
    void noGitVariableOfTheHostReachesGit() throws Exception {
        GitFixture fx = new GitFixture(tmp);
        List<String> local = List.of(fx.plain(tmp, "rev-parse", "--local-env-vars").strip().split("\n"));
        assertThat(local).contains("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_COMMON_DIR");
        Map<String, String> host = new HashMap<>();
        for (String v : local) {
            host.put(v, "/host/" + v);
        }
        for (String v : List.of("GIT_EXTERNAL_DIFF", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "GIT_ASKPASS",
                "GIT_EXEC_PATH", "GIT_TRACE", "GIT_TRACE2", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EDITOR",
                "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_TEMPLATE_DIR", "PAGER", "SSH_ASKPASS", "EDITOR")) {
            host.put(v, "/host/" + v);
        }
        host.put("PATH", System.getenv("PATH"));
        Map<String, String> env = new HardenedGit(host).environment(List.of(), null, null);
        assertThat(env.values()).noneMatch(value -> value.startsWith("/host/"));
        assertThat(env).doesNotContainKeys("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                "GIT_COMMON_DIR", "GIT_CONFIG_PARAMETERS", "GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH", "GIT_PAGER", "PAGER");
        assertThat(env).containsEntry("GIT_ALLOW_PROTOCOL", "none").containsEntry("GIT_EDITOR", ":");
    }

    /** One vector: the host's variables, the command, and what shows that plain git obeyed them. */
    private record Vector(String name, Map<String, String> env, List<String> args, Path sign) {
    }

    /** Pins: each redirecting or injecting variable, set in the host's environment, changes nothing git does. */
    @Test
    void redirectingAndInjectingVariablesChangeNothing() throws Exception {
        GitFixture fx = new GitFixture(tmp);
        Path other = fx.repo("other");
        Path fakeExec = Files.createDirectories(tmp.resolve("exec"));
        String realGit = HardenedGit.find(System.getenv("PATH"));
        Files.writeString(fakeExec.resolve("git"), "#!/bin/sh\ntouch '" + tmp.resolve("markers/exec-path")
                + "'\nexec '" + realGit + "' \"$@\"\n");
        fakeExec.resolve("git").toFile().setExecutable(true);
        Path fsmon = fx.markerScript(tmp.resolve("fsmon.sh"), "injected");
        Path objects = tmp.resolve("objects");
        Files.writeString(tmp.resolve("changed.txt"), "changed\n");
        String blob = fx.plain(tmp, "hash-object", tmp.resolve("changed.txt").toString()).strip();
        Path global = tmp.resolve("global.gitconfig");
        Files.writeString(global, "[core]\n\tfsmonitor = " + fsmon + "\n");
        List<Vector> vectors = List.of(
                new Vector("GIT_DIR", Map.of("GIT_DIR", other.resolve(".git").toString()),
                        List.of("commit", "-q", "--allow-empty", "-m", "where?"), other.resolve(".git/logs/HEAD")),
                new Vector("GIT_INDEX_FILE", Map.of("GIT_INDEX_FILE", tmp.resolve("markers/index").toString()),
                        List.of("add", "-A"), tmp.resolve("markers/index")),
                new Vector("GIT_OBJECT_DIRECTORY", Map.of("GIT_OBJECT_DIRECTORY", objects.toString()),
                        List.of("add", "-A"), objects.resolve(blob.substring(0, 2)).resolve(blob.substring(2))),
                new Vector("GIT_CONFIG_COUNT", Map.of("GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "core.fsmonitor",
                        "GIT_CONFIG_VALUE_0", fsmon.toString()), List.of("status"), tmp.resolve("markers/injected")),
                new Vector("GIT_CONFIG_PARAMETERS", Map.of("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='" + fsmon + "'"),
                        List.of("status"), tmp.resolve("markers/injected")),
                new Vector("GIT_CONFIG_GLOBAL", Map.of("GIT_CONFIG_GLOBAL", global.toString()), List.of("status"),
                        tmp.resolve("markers/injected")),
                new Vector("GIT_CONFIG_SYSTEM", Map.of("GIT_CONFIG_SYSTEM", global.toString()), List.of("status"),
                        tmp.resolve("markers/injected")),
                new Vector("GIT_EXTERNAL_DIFF", Map.of("GIT_EXTERNAL_DIFF", fsmon.toString()), List.of("diff"),
                        tmp.resolve("markers/injected")),
                new Vector("GIT_EXEC_PATH", Map.of("GIT_EXEC_PATH", fakeExec.toString()),
                        List.of("commit", "-q", "-am", "auto maintenance"), tmp.resolve("markers/exec-path")),
                new Vector("GIT_TRACE", Map.of("GIT_TRACE", tmp.resolve("markers/trace").toString()),
                        List.of("status"), tmp.resolve("markers/trace")));
        for (Vector v : vectors) {
            Path r = fx.repo("r-" + v.name());
            fx.plain(r, "config", "maintenance.auto", "true");
            fx.plain(r, "config", "gc.auto", "1");
            Files.writeString(r.resolve("a.txt"), "changed\n");
            Files.createDirectories(objects);
            fx.plainWith(r, v.env(), v.args().toArray(String[]::new));
            assertThat(v.sign()).as(v.name() + ": plain git obeys it").exists();
            deleteTree(v.sign());
            fx.clearMarks();
            HardenedGit git = GitFixture.hardened(v.env());
            GitResult result = git.run(r, git.settingsFor(r, null), v.args().toArray(String[]::new));
            assertThat(v.sign()).as(v.name() + ": the host's git ignores it (" + result + ")").doesNotExist();
            assertThat(fx.marks()).as(v.name()).isEmpty();
        }
    }

    private static void deleteTree(Path p) throws Exception {
        if (Files.isDirectory(p)) {
            try (var s = Files.walk(p)) {
                for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(x);
                }
            }
        } else {
            Files.deleteIfExists(p);
        }
    }
}
