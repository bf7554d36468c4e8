package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The login-shell PATH probe through the real host: it waits for the tool calls to pause (QuietWork), so the
 * burst of calls a fresh session often starts with shares the CPU with no login shell (docs/performance-log.md,
 * "The login-PATH probe waits for a pause").
 */
@EnabledOnOs(OS.LINUX)
class LoginProbeIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    @TempDir
    Path bin;

    /**
     * Pins that the login shell does not start during a burst of calls, even when the tools are listed in its
     * middle (which hands the probe over: before, the listing started it at once), and starts in the pause after.
     */
    @Test
    void theLoginShellWaitsForABurstOfCallsToPauseAndStartsInThePause() throws Exception {
        Path started = bin.resolve("started");
        Path shell = bin.resolve("login-shell");
        // the probe runs $SHELL -lic 'printf %s "$PATH"': this one notes when it started (ns since the epoch)
        Files.writeString(shell, "#!/bin/sh\ndate +%s%N > '" + started + ".part'\nmv '" + started + ".part' '"
                + started + "'\nprintf %s /usr/bin:/bin\n");
        assertThat(shell.toFile().setExecutable(true)).isTrue();
        Files.writeString(project.resolve("small.txt"), "one line\n");
        List<String> command = HostProcess.javaCommand(HostProcess.launcherJar());
        command.addAll(List.of("serve", "--stdio", "--data-dir", data.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SHELL", shell.toString());
        try (HostProcess host = HostProcess.start(builder)) {
            String session = host.session(project, "auto");
            // one write: the host reads each request as the one before ends, so the calls never pause
            StringBuilder burst = new StringBuilder();
            int first = host.nextRequestId();
            int last = first;
            for (int i = 0; i < 800; i++) {
                last = i == 0 ? first : host.nextRequestId();
                String method = i == 400 ? "tools.list" : "tools.execute";
                String params = i == 400 ? "{\"sessionId\":\"" + session + "\"}"
                        : "{\"sessionId\":\"" + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"r" + i
                                + "\",\"name\":\"Read\",\"arguments\":{\"path\":\"small.txt\"}}";
                burst.append("{\"jsonrpc\":\"2.0\",\"id\":").append(last).append(",\"method\":\"").append(method)
                        .append("\",\"params\":").append(params).append("}\n");
            }
            host.sendRaw(burst.toString().getBytes(StandardCharsets.UTF_8));
            int from = first;
            int to = last;
            List<JsonNode> answers = await().atMost(Duration.ofSeconds(120)).until(() -> host.messages().stream()
                    .filter(m -> m.path("id").isInt() && m.get("id").asInt() >= from && m.get("id").asInt() <= to)
                    .toList(), all -> all.size() == 800);
            assertThat(answers).allSatisfy(a -> assertThat(a.has("error")).as("answer " + a).isFalse());
            // the burst's end by the host's clock: the latest start plus total of its Reads (they may overlap)
            JsonNode rows = host.call("audit.query",
                    "{\"sessionId\":\"" + session + "\",\"toolName\":\"Read\",\"limit\":1000}").get("rows");
            assertThat(rows).hasSize(799);
            long endedMs = 0;
            for (JsonNode row : rows) {
                endedMs = Math.max(endedMs, row.get("at").asLong() + row.get("totalMs").asLong());
            }
            Instant burstEnded = Instant.ofEpochMilli(endedMs);
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(started));
            Instant shellStarted = Instant.ofEpochSecond(0, Long.parseLong(Files.readString(started).trim()));
            assertThat(shellStarted).as("the login shell's start against the burst's end").isAfter(burstEnded);
        }
    }
}
