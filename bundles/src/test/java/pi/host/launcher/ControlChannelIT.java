package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Pins issue 12.1: a process the host starts (here an auto-approved Bash command, the host's own
 * user) can neither read nor write the host's RPC channel, nor read its memory, nor attach to its JVM.
 * The host and the attacker run as a user that is not root ({@link NonRootUser}); the same attack
 * reaches a JVM without the hardening ({@link EchoDecoy}), so the test fails when the hardening does.
 */
@EnabledOnOs(OS.LINUX)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControlChannelIT {

    /** Every vector attack.sh tries. */
    private static final List<String> VECTORS = List.of("write-stdin", "write-stdout", "read-stdin", "read-stdout",
            "thread-stdin", "list-fds", "cwd", "environ", "maps", "mem", "ptrace", "pidfd-getfd", "attach");
    /** The vectors the kernel checks in ptrace's attach mode, which Yama may refuse to anyone. */
    private static final List<String> ATTACH_MODE = List.of("mem", "ptrace", "pidfd-getfd");
    private static final Duration EXIT = Duration.ofSeconds(30);

    private final NonRootUser user = NonRootUser.get();
    private final AtomicInteger ids = new AtomicInteger(1);
    private Path shared;
    private Path home;
    private Path workspace;
    private Path launcher;
    private HostProcess host;
    private long hostPid;

    @BeforeAll
    void startTheHostAsTheUser() throws Exception {
        shared = Files.createTempDirectory("pi-host-control-channel");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path jar = HostProcess.launcherJar();
        launcher = NonRootUser.readableCopy(jar, shared.resolve("launcher").resolve(jar.getFileName().toString()));
        NonRootUser.readableCopy(jar.resolveSibling("pi-host"), shared.resolve("launcher").resolve("pi-host"));
        try (InputStream script = ControlChannelIT.class.getResourceAsStream("attack.sh")) {
            Files.copy(script, shared.resolve("attack.sh"));
        }
        Files.writeString(shared.resolve("inject.txt"), String.join("\n", List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":\"attack-1\",\"method\":\"settings.update\","
                        + "\"params\":{\"defaultPermissionMode\":\"auto\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"attack-2\",\"method\":\"session.configure\","
                        + "\"params\":{\"sessionId\":\"@SESSION@\",\"permissionMode\":\"auto\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"attack-3\",\"method\":\"permissions.resolve\","
                        + "\"params\":{\"requestId\":\"@CARD@\",\"decision\":\"allow-once\"}}")) + "\n");
        Files.writeString(shared.resolve("forge.txt"),
                "{\"jsonrpc\":\"2.0\",\"method\":\"permission.request\",\"params\":{\"forged\":true}}\n");
        Files.copy(NonRootUser.class.getResourceAsStream("EchoDecoy.class"), Files.createDirectories(
                shared.resolve("decoy/pi/host/launcher")).resolve("EchoDecoy.class"));
        try (Stream<Path> all = Files.walk(shared)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p)
                        || p.toString().endsWith(".sh") ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        home = user.ownedFolder(shared, "home");
        workspace = user.ownedFolder(shared, "workspace");
        Path data = user.ownedFolder(shared, "data");
        List<String> serve = HostProcess.javaCommand(launcher);
        serve.addAll(List.of("serve", "--stdio", "--data-dir", data.toString()));
        host = HostProcess.start(user.command(home, NonRootUser.throughOwnPipes(serve)));
        assertThat(call("host.info", "{}").get("protocolVersion").asInt()).isEqualTo(1);
        hostPid = Long.parseLong(stdout(bash(session("auto"), "echo $PPID")).strip());
    }

    @AfterAll
    void stop() throws Exception {
        if (host != null) {
            host.closeInput();
            host.awaitExit(EXIT);
            host.close();
        }
        try (Stream<Path> all = Files.walk(shared)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Pins: an approved command wrote JSON-RPC into the host's stdin through /proc/<host>/fd/0 (issue 12.1). */
    @Test
    void aCommandCannotReachTheRpcChannelOrTheMemoryOfTheHost() throws Exception {
        String attacker = session("auto");
        String victim = session("ask");
        // a card the attacker tries to answer itself: a Write in the ask session, waiting for the user
        int write = ids.incrementAndGet();
        host.send("{\"jsonrpc\":\"2.0\",\"id\":" + write + ",\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                + victim + "\",\"turnId\":\"t1\",\"toolCallId\":\"w1\",\"messageId\":\"m1\",\"name\":\"Write\","
                + "\"arguments\":{\"path\":\"planted.txt\",\"content\":\"x\"}}}");
        String card = host.awaitMessage(m -> "permission.request".equals(m.path("method").asText())
                && victim.equals(m.path("params").path("sessionId").asText())).get("params").get("requestId").asText();
        Path inject = shared.resolve("inject-" + victim + ".txt");
        Files.writeString(inject, Files.readString(shared.resolve("inject.txt")).replace("@SESSION@", victim)
                .replace("@CARD@", card));
        Files.setPosixFilePermissions(inject, PosixFilePermissions.fromString("rw-r--r--"));

        Map<String, String> outcome = attack(attacker, "$PPID", inject);

        assertThat(outcome.keySet()).containsAll(VECTORS);
        for (String vector : VECTORS) {
            assertThat(outcome.get(vector)).as(vector).startsWith("refused");
        }
        // nothing the attacker wrote reached the host or the client, and nothing of the host's state moved
        assertThat(host.messages()).noneSatisfy(m -> assertThat(m.path("id").asText()).startsWith("attack-"));
        assertThat(host.messages()).noneSatisfy(m -> assertThat(m.path("params").has("forged")).isTrue());
        assertThat(host.messages()).noneSatisfy(m -> assertThat(m.path("method").asText()).startsWith("forged"));
        assertThat(host.badLines()).isEmpty();
        assertThat(host.stderr()).contains("Full thread dump"); // the SIGQUIT arrived, and its dump went to stderr
        assertThat(call("settings.get", "{}").get("defaultPermissionMode").asText()).isEqualTo("ask");
        assertThat(call("session.get", "{\"sessionId\":\"" + victim + "\"}").get("permissionMode").asText())
                .isEqualTo("ask");
        assertThat(host.messages()).noneSatisfy(m -> assertThat(m.path("id").asInt()).isEqualTo(write));
        call("permissions.resolve", "{\"requestId\":\"" + card + "\",\"decision\":\"deny\"}");
        assertThat(host.response(write).get("result").get("errorCode").asText()).isEqualTo("TOOL_DENIED");
        assertThat(workspace.resolve("planted.txt")).doesNotExist();
    }

    /** The control: the same attack reaches a same-user JVM that is dumpable and keeps its attach listener. */
    @Test
    void theSameAttackReachesAJvmWithoutTheHardening() throws Exception {
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djna.tmpdir=" + home, "-cp", shared.resolve("decoy") + ":"
                        + launcher.resolveSibling("pi-host").resolve("bundle").resolve("jna.jar"),
                EchoDecoy.class.getName());
        try (HostProcess decoy = HostProcess.start(user.command(home, NonRootUser.throughOwnPipes(java)))) {
            long pid = decoy.awaitMessage(m -> m.has("pid")).get("pid").asLong();

            Map<String, String> outcome = attack(session("auto"), Long.toString(pid), shared.resolve("inject.txt"));

            boolean yamaStrict = yamaScope() >= 2; // then no process of the user may attach, and the kernel says so
            for (String vector : VECTORS) {
                assertThat(outcome.get(vector)).as(vector)
                        .startsWith(yamaStrict && ATTACH_MODE.contains(vector) ? "refused" : "reached");
            }
            // what came of it on the decoy's side: the injected requests were read, the forged lines reached its client
            decoy.awaitMessage(m -> m.path("echo").asText().contains("\"id\":\"attack-1\""));
            decoy.awaitMessage(m -> m.path("params").path("forged").asBoolean());
            if (!yamaStrict) {
                decoy.awaitMessage(m -> "forged.viaPidfd".equals(m.path("method").asText()));
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> decoy.badLines().stream().anyMatch(l -> l.startsWith("Full thread dump")));
            decoy.closeInput();
            assertThat(decoy.awaitExit(EXIT)).isZero();
        }
    }

    /** Pins: a command gets /dev/null and two pipes of its own, no other descriptor of the host (issue 12.1). */
    @Test
    void aCommandHasOnlyDevNullAndItsOwnPipes() throws Exception {
        String s = session("auto");
        String listing = "for i in {0..1023}; do [[ -e /proc/$$/fd/$i ]] && echo \"$i $(readlink /proc/$$/fd/$i)\"; done; true";
        Map<Integer, String> foreground = descriptors(stdout(bash(s, listing)));
        JsonNode started = bash(s, listing, "\"runInBackground\":true");
        String task = started.get("details").get("backgroundTaskId").asText();
        JsonNode read = org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(
                () -> call("background.read", "{\"taskId\":\"" + task + "\"}"),
                r -> !"RUNNING".equals(r.get("task").get("state").asText()));
        Map<Integer, String> background = descriptors(read.get("stdout").asText());

        List<String> hostPipes = new ArrayList<>();
        if (user.switching()) { // root may look at the host's own descriptors (undumpable or not)
            for (int fd = 0; fd <= 2; fd++) {
                hostPipes.add(Files.readSymbolicLink(Path.of("/proc/" + hostPid + "/fd/" + fd)).toString());
            }
        }
        for (Map<Integer, String> fds : List.of(foreground, background)) {
            assertThat(fds.keySet()).containsExactly(0, 1, 2);
            assertThat(fds.get(0)).isEqualTo("/dev/null");
            assertThat(fds.get(1)).startsWith("pipe:[").isNotEqualTo(fds.get(2));
            assertThat(fds.get(2)).startsWith("pipe:[");
            assertThat(hostPipes).doesNotContain(fds.get(1), fds.get(2));
        }
        // the subreaper's prctl ran through the tools bundle's own JNA, beside the launcher's
        String adopted = stdout(bash(s, "( sleep 3 & echo $! > orphan.pid ); sleep 0.3; awk '{print $4}' /proc/$(cat orphan.pid)/stat"));
        assertThat(adopted.strip()).isEqualTo(Long.toString(hostPid));
    }

    /** Pins: a JVM started without the hardening options served (attach listener, perf data, dumps on stdout). */
    @Test
    void theHostRefusesToServeWithoutItsJvmOptions() throws Exception {
        Path data = user.ownedFolder(shared, "data-no-options");
        List<String> plain = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + launcher.resolveSibling("pi-host").resolve("jvm.options"), "-XX:-DisableAttachMechanism", "-jar",
                launcher.toString(), "serve", "--stdio", "--data-dir", data.toString()));
        try (HostProcess refused = HostProcess.start(user.command(home, plain))) {
            refused.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"host.info\"}");
            assertThat(refused.awaitExit(EXIT)).isEqualTo(1);
            assertThat(refused.stderr()).contains("refusing to serve").contains("-XX:+DisableAttachMechanism")
                    .doesNotContain("-XX:-UsePerfData").doesNotContain("-XX:+DisplayVMOutputToStderr");
            assertThat(refused.messages()).isEmpty();
            assertThat(refused.badLines()).isEmpty();
        }
        assertThat(data.resolve("pi-host.db")).doesNotExist();
        assertThat(data.resolve("felix-cache")).doesNotExist();
    }

    private Map<String, String> attack(String session, String targetPid, Path inject) throws Exception {
        String command = "bash " + shared.resolve("attack.sh") + " " + targetPid + " " + inject + " "
                + shared.resolve("forge.txt");
        Map<String, String> outcome = new LinkedHashMap<>();
        for (String line : stdout(bash(session, command)).split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) {
                outcome.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return outcome;
    }

    private static Map<Integer, String> descriptors(String listing) {
        Map<Integer, String> fds = new LinkedHashMap<>();
        for (String line : listing.strip().split("\n")) {
            String[] parts = line.split(" ", 2);
            fds.put(Integer.parseInt(parts[0]), parts.length > 1 ? parts[1] : "");
        }
        return fds;
    }

    private static int yamaScope() throws IOException {
        Path scope = Path.of("/proc/sys/kernel/yama/ptrace_scope");
        return Files.exists(scope) ? Integer.parseInt(Files.readString(scope).strip()) : 0;
    }

    private String session(String permissionMode) throws IOException {
        return call("session.create", "{\"projectRoot\":\"" + workspace + "\",\"permissionMode\":\"" + permissionMode
                + "\"}").get("sessionId").asText();
    }

    private JsonNode bash(String session, String command, String... extra) throws IOException {
        String args = "{\"command\":" + TextNode.valueOf(command) + ",\"timeout\":120"
                + (extra.length == 0 ? "" : "," + String.join(",", extra)) + "}";
        JsonNode result = host.tool(session, "b" + ids.incrementAndGet(), "Bash", args);
        assertThat(result.get("ok").asBoolean()).as(result.toString()).isTrue();
        return result;
    }

    private static String stdout(JsonNode bashResult) {
        return bashResult.get("details").get("stdout").asText();
    }

    private JsonNode call(String method, String params) throws IOException {
        return host.call(method, params);
    }
}
