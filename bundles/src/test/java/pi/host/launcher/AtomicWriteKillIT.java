package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 item 5 pinned: a Write's temporary file ({@code .name.*.pi-tmp}) stayed in the workspace
 * when the host was killed while it wrote. The real host is killed with SIGKILL at the moment its
 * Write has the new content half on disk, seen from outside as a file of the workspace other than
 * the target among the host's open descriptors (an unnamed {@code O_TMPFILE} inode now, a named
 * temporary file before); the workspace then holds the target's old or new content whole and no
 * other name, and the next host starts on the same data dir with it so.
 */
class AtomicWriteKillIT {

    /** About 8.5 MiB: the write and its fsync take tens of milliseconds, long enough to be seen. */
    private static final String CONTENT = "0123456789abcdef\n".repeat(512 * 1024);
    private static final int ATTEMPTS = 20;

    @TempDir
    Path data;
    @TempDir
    Path project;

    @Test
    void aHostKilledMidWriteLeavesNoTemporaryFileInTheWorkspace() throws Exception {
        Path real = project.toRealPath();
        Path file = Files.writeString(real.resolve("big.txt"), "before\n");
        boolean killedMidWrite = false;
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            long pid = host.process().pid();
            for (int i = 1; i <= ATTEMPTS && !killedMidWrite; i++) {
                host.send("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools.execute\",\"params\":{\"sessionId\":\""
                        + session + "\",\"turnId\":\"t1\",\"toolCallId\":\"w" + i + "\",\"name\":\"Write\","
                        + "\"arguments\":{\"path\":\"big.txt\",\"content\":\"" + CONTENT.replace("\n", "\\n")
                        + "\"}}}");
                int id = i;
                // until the host holds an unnamed file of the workspace open (mid-write), or the Write is done
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1)).until(
                        () -> temporaryFileOpen(pid, real, file) || answered(host, id));
                if (temporaryFileOpen(pid, real, file)) {
                    host.process().destroyForcibly(); // SIGKILL
                    assertThat(host.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
                    killedMidWrite = true;
                } else {
                    assertThat(host.response(id).get("result").get("ok").asBoolean()).isTrue();
                }
            }
        }
        assertThat(killedMidWrite).as("a Write was caught mid-write in " + ATTEMPTS + " attempts").isTrue();
        assertThat(names(project)).containsExactly("big.txt");
        assertThat(Files.readString(file)).isIn("before\n", CONTENT); // old or new, whole

        // the next host on the same data dir: the workspace stays clean, its Write works
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.call("session.create", "{\"projectRoot\":\"" + project
                    + "\",\"permissionMode\":\"auto\"}").get("sessionId").asText();
            JsonNode w = host.tool(session, "after", "Write", "{\"path\":\"big.txt\",\"content\":\"after\\n\"}");
            assertThat(w.get("ok").asBoolean()).as(w.toString()).isTrue();
            assertThat(names(project)).containsExactly("big.txt");
            assertThat(Files.readString(file)).isEqualTo("after\n");
        }
    }

    private static boolean answered(HostProcess host, int id) {
        return host.messages().stream().anyMatch(m -> m.has("id") && m.get("id").asInt() == id);
    }

    /**
     * Whether {@code pid} has a file in {@code dir} open other than {@code target} (and the directory):
     * an O_TMPFILE inode shows in /proc as {@code dir/#ino (deleted)}, a named temporary file by its name.
     */
    private static boolean temporaryFileOpen(long pid, Path dir, Path target) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    Path open = Files.readSymbolicLink(fd);
                    if (open.startsWith(dir) && !open.equals(dir) && !open.equals(target)) {
                        return true;
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor went while we looked
                }
            }
        } catch (IOException gone) {
            return false;
        }
        return false;
    }

    private static List<String> names(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }
}
