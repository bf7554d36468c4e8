package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged launcher as a real process: the RPC on stdio, its bad-input handling, and every way it ends. */
class LauncherIT {

    private static final Duration EXIT = Duration.ofSeconds(30);
    private static final String INFO = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"host.info\"}";
    /** A listed bundle that logs through slf4j (from the launcher's class path, ClassPathLibraries). */
    private static final String VALIDATOR = "com.networknt.json-schema-validator";

    /** Every bundle started, except a fragment, which is attached (RESOLVED). */
    private static void assertAllStarted(JsonNode bundles) {
        for (JsonNode b : bundles) {
            String expected = b.get("fragment").asBoolean() ? "RESOLVED" : "ACTIVE";
            assertThat(b.get("state").asText()).as(b.toString()).isEqualTo(expected);
        }
    }

    @TempDir
    Path data;

    @Test
    void answersHostInfoWithEveryBundleActiveAndExitsZeroAtEndOfInput() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.request(2, "session.list", "{}"); // answered once every bundle has started (StartupGate)
            host.send(INFO).closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
            assertThat(host.badLines()).isEmpty();
            assertThat(host.messages()).hasSize(2);
            JsonNode result = host.response(1).get("result");
            assertThat(result.get("ready").asBoolean()).isTrue();
            assertThat(result.get("protocolVersion").asInt()).isEqualTo(1);
            assertAllStarted(result.get("bundles"));
            List<String> names = new ArrayList<>();
            for (JsonNode b : result.get("bundles")) {
                names.add(b.get("symbolicName").asText());
            }
            assertThat(names).contains("pi.host.api", "pi.host.core", "pi.host.tools", "org.apache.felix.scr", VALIDATOR);
            // slf4j is on the launcher's class path, offered through the system bundle; no mediator runs
            assertThat(names).doesNotContain("slf4j.api", "slf4j.simple", "org.apache.aries.spifly.dynamic.bundle");
            assertThat(host.stderr()).doesNotContain("SLF4J(", "No SLF4J providers"); // slf4j 2 warns as SLF4J(W)
        }
        assertThat(data.resolve("felix-cache")).isDirectory();
    }

    @Test
    void restartsFromItsBundleCache() throws Exception {
        for (int run = 0; run < 2; run++) {
            try (HostProcess host = HostProcess.serve(data)) {
                assertAllStarted(host.startedInfo().get("bundles"));
                host.closeInput();
                assertThat(host.awaitExit(EXIT)).isZero();
            }
        }
    }

    @Test
    void restartsAfterABundleJarChanged() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
        }
        // a newer jar makes the launcher update the cached bundle (one that logs through slf4j: it must
        // still find slf4j and its provider, or slf4j says so on stderr)
        Path jar = HostProcess.launcherJar().resolveSibling("pi-host").resolve("bundle")
                .resolve("json-schema-validator.jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now()));
        try (HostProcess host = HostProcess.serve(data)) {
            assertAllStarted(host.startedInfo().get("bundles"));
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
            assertThat(host.stderr()).doesNotContain("Exception", "SLF4J(", "No SLF4J providers");
        }
    }

    /**
     * Pins: a call sent at spawn, before the bundles that start after the first answer (the builtin tools
     * among them) are up, waits for them and succeeds; host.info is answered meanwhile.
     */
    @Test
    void aToolCallSentAtSpawnWaitsForTheBundlesThatStartAfterTheFirstAnswer(@TempDir Path project) throws Exception {
        Files.writeString(project.resolve("a.txt"), "alpha\n");
        String session;
        try (HostProcess host = HostProcess.serve(data)) {
            session = host.session(project, "auto"); // kept in the database for the next start
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
        }
        try (HostProcess host = HostProcess.serve(data)) {
            // both lines at once, before the host could have started anything
            host.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                    + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"c1\",\"name\":\"Read\",\"arguments\":{\"path\":\"a.txt\"}}}");
            host.send(INFO.replace("\"id\":1", "\"id\":2"));
            JsonNode read = host.response(1).get("result");
            assertThat(read.get("ok").asBoolean()).as(read.toString()).isTrue();
            assertThat(read.get("content").get(0).get("text").asText()).contains("alpha");
            assertThat(host.response(2).get("result").get("protocolVersion").asInt()).isEqualTo(1);
        }
    }

    @Test
    void hostShutdownAnswersThenExitsZero() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode answer = host.request(5, "host.shutdown", "{}");
            assertThat(answer.get("result").isObject()).isTrue();
            assertThat(host.awaitExit(EXIT)).isZero();
        }
    }

    @Test
    void sigtermStopsTheFrameworkAndExits() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.request(1, "host.info", "{}");
            host.process().destroy(); // SIGTERM
            int code = host.awaitExit(EXIT);
            assertThat(code).isEqualTo(143); // 128 + SIGTERM, after the shutdown hook stopped Felix
            assertThat(host.stderr()).doesNotContain("Exception");
        }
    }

    @Test
    void badLinesAreAnsweredAndTheNextRequestStillIs() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            host.send("this is not json");
            host.send("{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"host.info\"}");
            host.send("[]");
            host.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"no.such.method\"}");
            host.send("{\"jsonrpc\":\"2.0\",\"method\":\"no.such.notification\"}");
            host.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"host.info\",\"params\":{\"a\":"
                    + "[".repeat(50_000) + "]".repeat(50_000) + "}}");
            JsonNode ok = host.request(9, "host.info", "{}");
            assertThat(ok.get("result").get("protocolVersion").asInt()).isEqualTo(1);
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
            List<Integer> codes = new ArrayList<>();
            for (JsonNode m : host.messages()) {
                if (m.has("error")) {
                    codes.add(m.get("error").get("code").asInt());
                }
            }
            assertThat(codes).containsExactlyInAnyOrder(-32700, -32600, -32600, -32601, -32700);
            assertThat(host.badLines()).isEmpty();
        }
    }

    @Test
    void aLineOverTheBoundIsRejectedUnreadAndTheHostGoesOn() throws Exception {
        try (HostProcess host = HostProcess.serve(data, "--max-request-bytes", "65536")) {
            byte[] big = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"host.info\",\"params\":{\"pad\":\""
                    + "x".repeat(200_000) + "\"}}\n").getBytes(StandardCharsets.UTF_8);
            host.sendRaw(big);
            JsonNode rejected = host.awaitMessage(m -> m.has("error"));
            assertThat(rejected.get("error").get("code").asInt()).isEqualTo(-32600);
            assertThat(rejected.get("id").isNull()).isTrue();
            JsonNode ok = host.request(2, "host.info", "{}");
            assertThat(ok.has("result")).isTrue();
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
        }
    }

    @Test
    void unknownOptionPrintsUsageToStderrAndExitsTwo() throws Exception {
        try (HostProcess host = HostProcess.start("serve", "--stdio", "--no-such-option")) {
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isEqualTo(2);
            assertThat(host.stderr()).contains("--no-such-option").contains("Usage:");
            assertThat(host.messages()).isEmpty();
            assertThat(host.badLines()).isEmpty();
        }
    }

    @Test
    void versionAndHelpAnswerOnStdout() throws Exception {
        try (HostProcess host = HostProcess.start("--version")) {
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
            assertThat(host.badLines()).anySatisfy(l -> assertThat(l).startsWith("pi-host 0.1.0"));
        }
        try (HostProcess host = HostProcess.start("--help")) {
            host.closeInput();
            assertThat(host.awaitExit(EXIT)).isZero();
            assertThat(String.join("\n", host.badLines())).contains("serve").contains("--data-dir");
        }
    }

    @Test
    void dataDirComesFromTheEnvironmentWhenNotGiven() throws Exception {
        List<String> command = HostProcess.javaCommand(HostProcess.launcherJar());
        command.addAll(List.of("serve", "--stdio"));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("PI_HOST_DATA", data.toString());
        pb.redirectErrorStream(false);
        Process p = pb.start();
        p.getOutputStream().write((INFO + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(out).contains("\"protocolVersion\":1");
        assertThat(Files.isDirectory(data.resolve("felix-cache"))).isTrue();
    }
}
