package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bash and background tasks through the real {@code pi-host serve --stdio} process: the pipeline,
 * the JNA bundle in Felix, the background RPC methods and notifications, stop on delete and on shutdown.
 */
@EnabledOnOs(OS.LINUX)
class BashIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    private final AtomicInteger ids = new AtomicInteger(100);

    private JsonNode call(HostProcess host, String method, String params) throws Exception {
        JsonNode answer = host.request(ids.incrementAndGet(), method, params);
        assertThat(answer.has("error")).as(method + " answered " + answer).isFalse();
        return answer.get("result");
    }

    private String session(HostProcess host) throws Exception {
        return call(host, "session.create", "{\"projectRoot\":\"" + project + "\",\"permissionMode\":\"auto\"}")
                .get("sessionId").asText();
    }

    private JsonNode bash(HostProcess host, String session, String callId, String argsJson) throws Exception {
        return host.response(start(host, session, callId, argsJson)).get("result");
    }

    private int start(HostProcess host, String session, String callId, String argsJson) throws Exception {
        int id = ids.incrementAndGet();
        host.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"" + callId + "\",\"name\":\"Bash\",\"arguments\":"
                + argsJson + "}}");
        return id;
    }

    private static String cmd(String command) {
        return "{\"command\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(command) + "}";
    }

    private static String cmd(String command, String extra) {
        return "{\"command\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(command) + "," + extra + "}";
    }

    private long pid(Path file) {
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(file) && !Files.readString(file).isBlank());
        try {
            return Long.parseLong(Files.readString(file).trim());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void bashRunsThroughThePipelineWithTheNativeEdgesLoadedInFelix() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = session(host);
            JsonNode tools = call(host, "tools.list", "{\"sessionId\":\"" + s + "\"}").get("tools");
            assertThat(tools).anySatisfy(t -> {
                assertThat(t.get("name").asText()).isEqualTo("Bash");
                assertThat(t.get("risk").asText()).isEqualTo("high");
            });

            JsonNode ok = bash(host, s, "c1", cmd("echo out; echo err >&2; pwd"));
            assertThat(ok.get("ok").asBoolean()).as(ok.toString()).isTrue();
            assertThat(ok.get("details").get("stdout").asText()).isEqualTo("out\n" + project.toRealPath() + "\n");
            assertThat(ok.get("details").get("stderr").asText()).isEqualTo("err\n");
            JsonNode streamed = host.awaitMessage(m -> "tool.output".equals(m.path("method").asText())
                    && "stderr".equals(m.path("params").path("stream").asText()));
            assertThat(streamed.get("params").get("chunk").asText()).isEqualTo("err\n");

            // the orphan is adopted by the host process itself: JNA's prctl(PR_SET_CHILD_SUBREAPER) ran in Felix
            JsonNode adopted = bash(host, s, "c2", cmd("( sleep 3 & echo $! > orphan.pid ); sleep 0.3;"
                    + " awk '{print $4}' /proc/$(cat orphan.pid)/stat"));
            assertThat(adopted.get("details").get("stdout").asText().trim())
                    .isEqualTo(Long.toString(host.process().pid()));

            JsonNode random = bash(host, s, "c3", cmd("head -c 4096 /dev/urandom"));
            assertThat(random.get("details").get("stdout").asText()).isNotEmpty();
            JsonNode failed = bash(host, s, "c4", cmd("exit 7"));
            assertThat(failed.get("errorCode").asText()).isEqualTo("TOOL_FAILED");
            assertThat(failed.get("isError").asBoolean()).isTrue();
            assertThat(failed.get("details").get("exitCode").asInt()).isEqualTo(7);
            JsonNode invalid = bash(host, s, "c5", cmd("true", "\"timeout\":0"));
            assertThat(invalid.get("errorCode").asText()).isEqualTo("INVALID_ARGUMENT");
            assertThat(host.badLines()).isEmpty();
        }
    }

    /** Pins: a setsid'd daemon that ignores SIGTERM outlived the timeout (issue 5). */
    @Test
    void aTimeoutKillsTheWholeTreeAndAnswersWithinTheBound() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = session(host);
            long t0 = System.nanoTime();
            JsonNode r = bash(host, s, "c1", cmd("setsid sh -c 'trap \"\" TERM; echo $$ > daemon.pid;"
                    + " while :; do sleep 1; done' > /dev/null 2>&1 & sleep 100", "\"timeout\":2"));
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            assertThat(r.get("errorCode").asText()).isEqualTo("TOOL_TIMEOUT");
            assertThat(r.get("details").get("timeoutMs").asLong()).isEqualTo(2000);
            assertThat(took).isLessThan(Duration.ofSeconds(2 + 3));
            long daemon = pid(project.resolve("daemon.pid"));
            await().atMost(Duration.ofSeconds(2)).until(() -> !running(daemon));
        }
    }

    @Test
    void abortReturnsTheOutputSoFar() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = session(host);
            int id = start(host, s, "c1", cmd("echo first; sleep 100"));
            host.awaitMessage(m -> "tool.output".equals(m.path("method").asText())
                    && m.path("params").path("chunk").asText().contains("first"));
            long t0 = System.nanoTime();
            call(host, "tools.abort", "{\"sessionId\":\"" + s + "\",\"toolCallId\":\"c1\"}");
            JsonNode r = host.response(id).get("result");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
            assertThat(r.get("errorCode").asText()).isEqualTo("TOOL_ABORTED");
            assertThat(r.get("details").get("stdout").asText()).isEqualTo("first\n");
        }
    }

    @Test
    void aGigabyteOfOutputIsBoundedAndMarked() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = session(host);
            long before = peakRssKb(host.process().pid());
            long t0 = System.nanoTime();
            JsonNode r = bash(host, s, "c1", cmd("yes | head -c 1073741824", "\"timeout\":120"));
            long ms = Duration.ofNanos(System.nanoTime() - t0).toMillis();
            long growthMb = (peakRssKb(host.process().pid()) - before) / 1024;
            System.out.println("1 GiB through Bash in " + ms + " ms, peak RSS growth " + growthMb + " MB");
            assertThat(r.get("ok").asBoolean()).as(r.toString()).isTrue();
            assertThat(r.get("truncated").asBoolean()).isTrue();
            assertThat(r.get("details").get("stdout").asText()).contains("characters cut ...]");
            assertThat(r.get("details").get("stdoutCutChars").asLong()).isEqualTo(1073741824L - 64 * 1024);
            assertThat(growthMb).isLessThan(512);
        }
    }

    private static long peakRssKb(long pid) throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    @Test
    void backgroundTasksAreServedAndStoppedOnDeleteNotOnArchive() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String doomed = session(host);
            String kept = session(host);
            JsonNode started = bash(host, doomed, "c1",
                    cmd("echo $$ > bg1.pid; echo hello; exec sleep 100", "\"runInBackground\":true"));
            String task = started.get("details").get("backgroundTaskId").asText();
            JsonNode other = bash(host, kept, "c2",
                    cmd("echo $$ > bg2.pid; exec sleep 100", "\"runInBackground\":true"));
            String otherTask = other.get("details").get("backgroundTaskId").asText();
            long bg1 = pid(project.resolve("bg1.pid"));
            long bg2 = pid(project.resolve("bg2.pid"));

            host.awaitMessage(m -> "background.updated".equals(m.path("method").asText())
                    && task.equals(m.path("params").path("taskId").asText()));
            await().until(() -> call(host, "background.read", "{\"taskId\":\"" + task + "\"}")
                    .get("stdout").asText().equals("hello\n"));
            JsonNode list = call(host, "background.list", "{\"sessionId\":\"" + doomed + "\"}").get("tasks");
            assertThat(list).hasSize(1);
            assertThat(list.get(0).get("state").asText()).isEqualTo("RUNNING");
            JsonNode refused = host.request(ids.incrementAndGet(), "background.remove", "{\"taskId\":\"" + task + "\"}");
            assertThat(refused.get("error").get("message").asText()).contains("still running");

            call(host, "session.archive", "{\"sessionId\":\"" + kept + "\"}");
            call(host, "session.delete", "{\"sessionId\":\"" + doomed + "\"}");
            host.awaitMessage(m -> "background.updated".equals(m.path("method").asText())
                    && task.equals(m.path("params").path("taskId").asText())
                    && "STOPPED".equals(m.path("params").path("state").asText()));
            await().atMost(Duration.ofSeconds(5)).until(() -> !running(bg1));
            assertThat(running(bg2)).as("archiving does not stop tasks").isTrue();
            assertThat(call(host, "background.read", "{\"taskId\":\"" + otherTask + "\"}").get("task").get("state")
                    .asText()).isEqualTo("RUNNING");

            // a spawn into the deleted session is refused
            JsonNode late = bash(host, doomed, "c3", cmd("true", "\"runInBackground\":true"));
            assertThat(late.get("errorCode").asText()).isEqualTo("SESSION_NOT_FOUND");

            // shutdown stops what is left
            host.closeInput();
            host.awaitExit(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(5)).until(() -> !running(bg2));
        }
    }
}
