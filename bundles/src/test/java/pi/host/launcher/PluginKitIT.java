package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin author's path with real processes: {@code pi-host plugin scaffold}, {@code mvn verify}
 * of the generated module, {@code pi-host plugin pack} into the data dir of a running host, then
 * plugins.list, plugins.grant and a call of the new tool. Also the sample plugins packed and used
 * the same way, and the kit commands' answers to bad input.
 */
class PluginKitIT {

    private static final Duration BUILD_BOUND = Duration.ofMinutes(5);

    @TempDir
    Path data;
    @TempDir
    Path work;

    @Test
    void scaffoldVerifyPackAndTheToolIsCallableInARunningHost() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.startedInfo(); // the whole host is up before the clock starts
            long t0 = System.nanoTime();

            Run scaffold = pihost("plugin", "scaffold", "kit-demo", "--dir", work.toString());
            assertThat(scaffold.exit).as(scaffold.output).isZero();
            Path module = work.resolve("kit-demo");
            long t1 = System.nanoTime();

            Run verify = run(module, BUILD_BOUND, "mvn", "-B", "-q", "-Dstyle.color=never", "verify");
            assertThat(verify.exit).as(verify.output).isZero();
            assertThat(testsRun(module.resolve("target/surefire-reports"))).isEqualTo(3);
            assertThat(testsRun(module.resolve("target/failsafe-reports"))).isEqualTo(1);
            long t2 = System.nanoTime();

            Run pack = pihost("plugin", "pack", module.toString(), "--data-dir", data.toString());
            assertThat(pack.exit).as(pack.output).isZero();
            assertThat(pack.output).contains("OK, plugin kit-demo 0.1.0").contains("Installed " + data.resolve(
                    "plugins/kit-demo.jar"));
            long t3 = System.nanoTime();

            JsonNode listed = awaitPlugin(host, "kit-demo", "awaiting-grant");
            assertThat(listed.get("tools").get(0).get("exposedName").asText()).isEqualTo("plugin_kit_demo_hello");
            long t4 = System.nanoTime();

            JsonNode granted = host.call("plugins.grant", "{\"pluginId\":\"kit-demo\",\"capability\":"
                    + "\"agent.tool.register\"}").get("plugin");
            assertThat(granted.get("state").asText()).isEqualTo("registered");
            String session = session(host, "agent");
            JsonNode hello = pluginCall(host, session, "plugin_kit_demo_hello", "{\"action\":\"greet\",\"name\":\"kit\"}");
            assertThat(hello.get("ok").asBoolean()).as(hello.toString()).isTrue();
            assertThat(hello.get("content").get(0).get("text").asText()).isEqualTo("Hello, kit!");
            long t5 = System.nanoTime();

            System.out.printf("PluginKitIT timing: scaffold %d ms, mvn verify %d ms, pack %d ms, listed %d ms after"
                    + " pack, grant+call %d ms; scaffold to first call %d ms%n", ms(t1 - t0), ms(t2 - t1),
                    ms(t3 - t2), ms(t4 - t3), ms(t5 - t4), ms(t5 - t0));
        }
    }

    @Test
    void theSamplePluginsPackIntoARunningHostAndPlanKeepsTheirLimits() throws Exception {
        Path repo = Files.createDirectories(work.resolve("repo"));
        assertThat(run(repo, Duration.ofSeconds(30), "git", "init", "-q", "-b", "main").exit).isZero();
        Files.writeString(repo.resolve("Main.java"), "class Main {} // TODO name it\n");
        try (HostProcess host = HostProcess.serve(data)) {
            for (String sample : List.of("git-info", "todo-scan")) {
                Path module = copySample(sample);
                Run pack = pihost("plugin", "pack", module.toString(), "--data-dir", data.toString());
                assertThat(pack.exit).as(pack.output).isZero();
                awaitPlugin(host, sample, "awaiting-grant");
                host.call("plugins.grant", "{\"pluginId\":\"" + sample + "\",\"capability\":\"agent.tool.register\"}");
            }
            String agent = session(host, "agent", repo);
            JsonNode status = pluginCall(host, agent, "plugin_git_info_git", "{\"action\":\"status\"}");
            assertThat(text(status)).contains("## No commits yet on main").contains("?? Main.java");
            JsonNode todos = pluginCall(host, agent, "plugin_todo_scan_todos", "{}");
            assertThat(text(todos)).isEqualTo("Main.java:1: class Main {} // TODO name it");

            String plan = session(host, "plan", repo);
            assertThat(pluginCall(host, plan, "plugin_git_info_git", "{\"action\":\"log\"}").get("errorCode")
                    .asText()).isEqualTo("TOOL_FAILED"); // admitted: git itself says there are no commits yet
            // Plan's status runs nothing the repository configures (issue 12.5; RepositoryProgramsTest has every vector)
            Path ran = work.resolve("fsmonitor-ran");
            Path fsmonitor = Files.writeString(work.resolve("fsmonitor"), "#!/bin/sh\ntouch '" + ran + "'\n");
            assertThat(fsmonitor.toFile().setExecutable(true)).isTrue();
            assertThat(run(repo, Duration.ofSeconds(30), "git", "config", "core.fsmonitor", fsmonitor.toString()).exit)
                    .isZero();
            assertThat(pluginCall(host, plan, "plugin_git_info_git", "{\"action\":\"status\"}").get("ok").asBoolean())
                    .isTrue();
            assertThat(ran).doesNotExist();
            assertThat(run(repo, Duration.ofSeconds(30), "git", "status").exit).isZero();
            assertThat(ran).as("plain git runs it").exists();
            JsonNode commit = pluginCall(host, plan, "plugin_git_info_git", "{\"action\":\"commit\",\"message\":\"m\"}");
            assertThat(commit.get("errorCode").asText()).isEqualTo("PERMISSION_DENIED");
            JsonNode hidden = host.tool(plan, "p-todos", "plugin_todo_scan_todos", "{}");
            assertThat(hidden.get("errorCode").asText()).isEqualTo("PLUGIN_DISABLED_IN_PLAN");
        }
    }

    @Test
    void theKitCommandsSayWhatIsWrongWithTheirExitCodes() throws Exception {
        Run usage = pihost("plugin");
        assertThat(usage.exit).isEqualTo(2);
        assertThat(usage.output).contains("Usage: pi-host plugin");

        Run badId = pihost("plugin", "scaffold", "Bad_Id", "--dir", work.toString());
        assertThat(badId.exit).isEqualTo(2);
        assertThat(badId.output).startsWith("pi-host plugin: cannot scaffold this plugin id: ");
        try (Stream<Path> s = Files.list(work)) {
            assertThat(s).as("nothing written").isEmpty();
        }

        Run notAModule = pihost("plugin", "pack", work.toString(), "--data-dir", data.toString());
        assertThat(notAModule.exit).isEqualTo(2);
        assertThat(notAModule.output).contains("no pom.xml in " + work);
        assertThat(data.resolve("plugins")).doesNotExist();

        Path notAJar = Files.writeString(work.resolve("x.jar"), "not a jar");
        Run broken = pihost("plugin", "check", notAJar.toString());
        assertThat(broken.exit).isEqualTo(1);
        assertThat(broken.output).contains(notAJar + ": 1 error (the host will not load it)")
                .contains("  what: the file is not a readable jar").contains("  fix:  ");

        Run sample = pihost("plugin", "check", sampleJar("todo-scan").toString());
        assertThat(sample.exit).as(sample.output).isZero();
        assertThat(sample.output).contains("OK, plugin todo-scan 1.0.0 (TODO scanner), 1 warning")
                .contains("tool plugin_todo_scan_todos: risk medium (none declared), hidden in Plan and Goal")
                .contains("warning: META-INF/pi-plugin.json: agentTools[0].risk");
    }

    @Test
    void theAgentsKitToolsScaffoldPackAndCheckInsideTheWorkspace() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host, "agent");
            JsonNode bad = pluginCall(host, session, "PluginScaffold", "{\"id\":\"Not-An-Id\"}");
            assertThat(bad.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            try (Stream<Path> s = Files.list(work)) {
                assertThat(s).as("nothing written").isEmpty();
            }

            JsonNode scaffold = pluginCall(host, session, "PluginScaffold", "{\"id\":\"agent-demo\"}");
            assertThat(text(scaffold)).startsWith("Wrote plugin module agent-demo in " + work.resolve("agent-demo"));
            assertThat(work.resolve("agent-demo/src/main/resources/META-INF/pi-plugin.json")).isRegularFile();

            JsonNode pack = pluginCall(host, session, "PluginPack", "{\"path\":\"agent-demo\"}");
            assertThat(text(pack)).contains("OK, plugin agent-demo 0.1.0");
            assertThat(pack.get("details").get("installed").asText())
                    .isEqualTo(data.resolve("plugins/agent-demo.jar").toString());
            awaitPlugin(host, "agent-demo", "awaiting-grant");

            JsonNode check = pluginCall(host, session, "PluginCheck",
                    "{\"path\":\"agent-demo/target/agent-demo-0.1.0.jar\"}");
            assertThat(text(check)).startsWith("agent-demo/target/agent-demo-0.1.0.jar: OK, plugin agent-demo 0.1.0");
            assertThat(check.get("details").get("valid").asBoolean()).isTrue();
            JsonNode missing = pluginCall(host, session, "PluginCheck", "{\"path\":\"no/such.jar\"}");
            assertThat(missing.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
        }
    }

    /** The running host's view of a plugin, once it reached {@code state} (FileInstall polls every second). */
    private static JsonNode awaitPlugin(HostProcess host, String id, String state) {
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            for (JsonNode p : host.call("plugins.list", "{}").get("plugins")) {
                if (id.equals(p.get("id").asText()) && state.equals(p.get("state").asText())) {
                    return p;
                }
            }
            return null;
        }, p -> p != null);
    }

    /** Plugin tools are on-demand: ToolSearch activates one for the session, then it can be called. */
    private static JsonNode pluginCall(HostProcess host, String session, String tool, String args) throws IOException {
        JsonNode search = host.tool(session, "search-" + tool + System.nanoTime(), "ToolSearch",
                "{\"query\":\"" + tool + "\"}");
        assertThat(search.get("ok").asBoolean()).as(search.toString()).isTrue();
        return host.tool(session, "call-" + System.nanoTime(), tool, args);
    }

    private String session(HostProcess host, String mode) throws IOException {
        return session(host, mode, work);
    }

    private static String session(HostProcess host, String mode, Path root) throws IOException {
        return host.call("session.create", "{\"projectRoot\":\"" + root + "\",\"permissionMode\":\"auto\",\"mode\":\""
                + mode + "\"}").get("sessionId").asText();
    }

    private static String text(JsonNode result) {
        assertThat(result.get("ok").asBoolean()).as(result.toString()).isTrue();
        return result.get("content").get(0).get("text").asText();
    }

    /** The sample's sources in a folder of this test, so packing it leaves the checkout alone. */
    private Path copySample(String sample) throws IOException {
        Path from = samples().resolve(sample);
        Path to = work.resolve(sample);
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk.filter(p -> !from.relativize(p).startsWith("target"))::iterator) {
                Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return to;
    }

    private static Path samples() {
        return Path.of(System.getProperty("pi.host.samples", "../sample-plugins"));
    }

    private static Path sampleJar(String sample) {
        return samples().resolve(sample).resolve("target").resolve(sample + "-1.0.0.jar");
    }

    private static int testsRun(Path reports) throws IOException {
        int total = 0;
        try (Stream<Path> s = Files.list(reports)) {
            for (Path xml : (Iterable<Path>) s.filter(p -> p.toString().endsWith(".xml"))::iterator) {
                String text = Files.readString(xml);
                if (text.contains("<testsuite")) {
                    assertThat(text).contains("errors=\"0\"").contains("failures=\"0\"");
                    String tests = text.replaceFirst("(?s).*?<testsuite[^>]* tests=\"(\\d+)\".*", "$1");
                    total += Integer.parseInt(tests);
                }
            }
        }
        return total;
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** A finished process: exit code and stdout and stderr together. */
    private record Run(int exit, String output) {
    }

    private Run pihost(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", HostProcess.launcherJar().toString()));
        command.addAll(List.of(args));
        return run(work, BUILD_BOUND, command.toArray(String[]::new));
    }

    private Run run(Path dir, Duration bound, String... command) throws Exception {
        Path log = Files.createTempFile("pi-plugin-kit-it", ".log");
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + bound + ":\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
