package org.example.gitinfo;

import static org.example.gitinfo.TestRepo.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ToolResult;

/**
 * Pins issue 12.5 for the host's environment: variables git reads ({@code GIT_DIR},
 * {@code GIT_CONFIG_*}, {@code GIT_EXTERNAL_DIFF}, {@code GIT_EXEC_PATH}, ...) would move the
 * repository or run a program. Plain git with them does; the plugin, inheriting them, does not.
 */
class HostEnvironmentTest {

    /** Variables git reads beyond its repository-local ones ({@code git rev-parse --local-env-vars}). */
    private static final List<String> MORE = List.of("GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "GIT_SSH",
            "GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_EXEC_PATH", "GIT_TRACE", "GIT_TRACE2_EVENT", "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_EDITOR",
            "GIT_TEMPLATE_DIR", "GIT_ALLOW_PROTOCOL", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
            "GIT_ATTR_NOSYSTEM");

    @TempDir
    Path tmp;

    private TestRepo repo;
    private TestRepo outside;

    @BeforeEach
    void init() throws Exception {
        repo = new TestRepo(tmp.resolve("workspace"), tmp);
        outside = new TestRepo(tmp.resolve("elsewhere"), tmp.resolve("other"));
        outside.commit("secret.txt", "outside\n", "the other repository's history");
    }

    private ToolResult tool(Map<String, String> inherited, Map<String, Object> args) throws InterruptedException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(inherited);
        return repo.tool(new GitRunner("git", env), args);
    }

    @Test
    void noVariableOfTheHostThatGitReadsReachesIt() throws Exception {
        List<String> names = new ArrayList<>(List.of(repo.git("rev-parse", "--local-env-vars").strip().split("\n")));
        names.addAll(MORE);
        Map<String, String> planted = new LinkedHashMap<>();
        for (String name : names) {
            planted.put(name, "planted-" + name);
        }
        Path dumps = Files.createDirectories(tmp.resolve("env-dumps"));
        Path dumping = tmp.resolve("dumping-git");
        Files.writeString(dumping, "#!/bin/sh\nenv > '" + dumps + "'/$$\nexec git \"$@\"\n");
        Files.setPosixFilePermissions(dumping, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(planted);
        for (String action : List.of("status", "log", "diff")) {
            ToolResult r = repo.tool(new GitRunner(dumping.toString(), env), Map.of("action", action));
            assertTrue(r.ok(), r::toString);
        }
        try (Stream<Path> all = Files.list(dumps)) {
            List<Path> runs = all.toList();
            assertEquals(4 * 3, runs.size(), "a look-up, the object stores, the config and the command, per action");
            for (Path run : runs) {
                String seen = Files.readString(run);
                for (String name : names) {
                    assertFalse(seen.contains(name + "=planted-"), () -> name + " reached git: " + run);
                }
            }
        }
    }

    @Test
    void variablesThatMoveTheRepositoryMoveNothing() throws Exception {
        Map<String, String> elsewhere = Map.of("GIT_DIR", outside.root.resolve(".git").toString(),
                "GIT_WORK_TREE", outside.root.toString(), "GIT_COMMON_DIR", outside.root.resolve(".git").toString(),
                "GIT_INDEX_FILE", outside.root.resolve(".git/index").toString(),
                "GIT_OBJECT_DIRECTORY", outside.root.resolve(".git/objects").toString());
        Files.writeString(outside.root.resolve("secret.txt"), "changed out there\n");
        assertTrue(repo.plain(List.of("log", "--oneline"), elsewhere).output().contains("the other repository's history"));
        assertTrue(repo.plain(List.of("status", "--short"), elsewhere).output().contains("secret.txt"));
        ToolResult log = tool(elsewhere, Map.of("action", "log"));
        assertTrue(log.ok(), log::toString);
        assertEquals("init", text(log).substring(text(log).lastIndexOf(": ") + 2));
        ToolResult status = tool(elsewhere, Map.of("action", "status"));
        assertFalse(text(status).contains("secret.txt"), text(status));
    }

    @Test
    void variablesThatNameProgramsRunNothing() throws Exception {
        Path global = tmp.resolve("global.cfg");
        Files.writeString(global, "[core]\n\tfsmonitor = " + repo.program("config-global") + "\n");
        Path execPath = Files.createDirectories(tmp.resolve("exec-path"));
        Files.writeString(execPath.resolve("git"), "#!/bin/sh\ntouch '" + tmp.resolve("markers/exec-path")
                + "'\nexec " + whichGit() + " \"$@\"\n");
        Files.setPosixFilePermissions(execPath.resolve("git"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, Map<String, String>> cases = new LinkedHashMap<>();
        cases.put("config-count", Map.of("GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "core.fsmonitor",
                "GIT_CONFIG_VALUE_0", repo.program("config-count")));
        cases.put("config-parameters", Map.of("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='"
                + repo.program("config-parameters") + "'"));
        cases.put("config-global", Map.of("GIT_CONFIG_GLOBAL", global.toString()));
        cases.put("external-diff", Map.of("GIT_EXTERNAL_DIFF", repo.program("external-diff")));
        cases.put("trace", Map.of("GIT_TRACE", tmp.resolve("markers/trace").toString()));
        cases.put("exec-path", Map.of("GIT_EXEC_PATH", execPath.toString()));
        for (Map.Entry<String, Map<String, String>> c : cases.entrySet()) {
            Files.writeString(repo.root.resolve("a.txt"), "changed for " + c.getKey() + "\n"); // something to diff
            for (String action : List.of("status", "diff")) {
                assertTrue(tool(c.getValue(), Map.of("action", action)).ok(), c.getKey());
            }
            stageAndCommit(c.getKey(), c.getValue(), true);
            assertFalse(repo.ran(c.getKey()), c.getKey() + " ran under the plugin");
            repo.plain(List.of("status"), c.getValue());
            repo.plain(List.of("diff"), c.getValue());
            stageAndCommit(c.getKey(), c.getValue(), false);
            assertTrue(repo.ran(c.getKey()), c.getKey() + " did not run under plain git");
        }
    }

    private void stageAndCommit(String name, Map<String, String> env, boolean throughThePlugin) throws Exception {
        String file = name + (throughThePlugin ? ".plugin" : ".plain");
        Files.writeString(repo.root.resolve(file), "x\n");
        repo.git("add", file);
        if (throughThePlugin) {
            assertTrue(tool(env, Map.of("action", "commit", "message", name)).ok(), name);
        } else {
            repo.plain(List.of("commit", "-q", "-m", name), env);
        }
    }

    private static String whichGit() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "command -v git").start();
        String path = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals(0, p.waitFor());
        return path;
    }
}
