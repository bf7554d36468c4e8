package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 13.8 on the real process: after a disk-full episode the host kept failing
 * {@code audit.query} until a restart, and a database file deleted or replaced while the host ran
 * went unnoticed (calls answered ok; after a restart the session and its audit rows were gone).
 */
class StorageFaultsIT {

    @TempDir
    Path tmp;
    @TempDir
    Path project;

    private final AtomicInteger calls = new AtomicInteger();
    /** The calls that answered ok: each must have its audit row. */
    private final Set<String> answeredOk = ConcurrentHashMap.newKeySet();

    private JsonNode read(HostProcess host, String session) throws IOException {
        String id = "r" + calls.incrementAndGet();
        JsonNode result = host.tool(session, id, "Read", "{\"path\":\"a.txt\"}");
        if (result.get("ok").asBoolean()) {
            answeredOk.add(id);
        }
        return result;
    }

    private static Set<String> callIds(JsonNode rows) {
        Set<String> ids = new HashSet<>();
        rows.forEach(r -> ids.add(r.get("toolCallId").asText()));
        return ids;
    }

    private static JsonNode request(HostProcess host, String method, String params) throws IOException {
        return host.request(4_000_000 + (int) (System.nanoTime() & 0xfffff), method, params);
    }

    private String session(HostProcess host) throws IOException {
        return host.call("session.create", "{\"projectRoot\":\"" + project + "\"}").get("sessionId").asText();
    }

    @Test
    void aDeletedDatabaseFailsEveryCallClosedUntilItIsBack() throws Exception {
        Files.writeString(project.resolve("a.txt"), "a\n");
        Path data = tmp.resolve("data");
        Path db = data.resolve("pi-host.db");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host);
            assertThat(read(host, session).get("ok").asBoolean()).isTrue();
            Files.createLink(tmp.resolve("saved.db"), db);
            Files.delete(db);

            await().atMost(Duration.ofSeconds(10)).until(() -> !read(host, session).get("ok").asBoolean());
            JsonNode refused = read(host, session);
            assertThat(refused.get("errorCode").asText()).isEqualTo("STORAGE_ERROR");
            assertThat(refused.get("content").get(0).get("text").asText()).contains("was deleted while the host runs");
            JsonNode list = request(host, "session.list", "{}");
            assertThat(list.get("error").get("data").get("errorCode").asText()).isEqualTo("STORAGE_ERROR");
            JsonNode query = request(host, "audit.query", "{}");
            assertThat(query.get("error").get("data").get("errorCode").asText()).isEqualTo("STORAGE_ERROR");
            JsonNode create = request(host, "session.create", "{\"projectRoot\":\"" + project + "\"}");
            assertThat(create.get("error").get("data").get("errorCode").asText()).isEqualTo("STORAGE_ERROR");

            Files.createLink(db, tmp.resolve("saved.db")); // the same file is back
            await().atMost(Duration.ofSeconds(10)).until(() -> read(host, session).get("ok").asBoolean());
            JsonNode rows = host.call("audit.query", "{\"sessionId\":\"" + session + "\",\"limit\":1000}").get("rows");
            assertThat(callIds(rows)).as("every call that answered ok is audited, no refusal is")
                    .isEqualTo(answeredOk);
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
        try (HostProcess host = HostProcess.serve(data)) {
            assertThat(host.call("session.list", "{}")).hasSize(1);
            JsonNode rows = host.call("audit.query", "{\"limit\":1000}").get("rows");
            assertThat(callIds(rows)).as("and still after a restart").isEqualTo(answeredOk);
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }

    @Test
    void aReplacedDatabaseFailsEveryCallClosedUntilTheHostRestarts() throws Exception {
        Files.writeString(project.resolve("a.txt"), "a\n");
        Path data = tmp.resolve("data");
        Path other = tmp.resolve("other");
        try (HostProcess host = HostProcess.serve(other)) { // another data dir's database, as a replacement
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host);
            assertThat(read(host, session).get("ok").asBoolean()).isTrue();
            Files.move(other.resolve("pi-host.db"), data.resolve("pi-host.db"), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            await().atMost(Duration.ofSeconds(10)).until(() -> !read(host, session).get("ok").asBoolean());
            JsonNode refused = read(host, session);
            assertThat(refused.get("errorCode").asText()).isEqualTo("STORAGE_ERROR");
            assertThat(refused.get("content").get(0).get("text").asText()).contains("was replaced by another file");
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
        try (HostProcess host = HostProcess.serve(data)) {
            String session = session(host); // the replacement is the database now
            assertThat(read(host, session).get("ok").asBoolean()).isTrue();
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        }
    }

    @Test
    void afterAFullDiskCallsAndAuditQueriesSucceedAgainWithoutARestart() throws Exception {
        Files.writeString(project.resolve("a.txt"), "a\n");
        Path mount = tmp.resolve("small");
        Files.createDirectories(mount);
        run("mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", mount.toString());
        try (HostProcess host = HostProcess.serve(mount.resolve("data"))) {
            String session = session(host);
            assertThat(read(host, session).get("ok").asBoolean()).isTrue();
            Path filler = mount.resolve("filler");
            fill(filler);
            JsonNode refused = null;
            for (int i = 0; i < 200 && refused == null; i++) {
                JsonNode r = read(host, session);
                refused = r.get("ok").asBoolean() ? null : r;
            }
            assertThat(refused).as("a full disk refuses a call").isNotNull();
            assertThat(refused.get("errorCode").asText()).isEqualTo("STORAGE_ERROR");

            Files.delete(filler);
            await().atMost(Duration.ofSeconds(30)).until(() -> read(host, session).get("ok").asBoolean());
            JsonNode rows = await().atMost(Duration.ofSeconds(30)).until(
                    () -> request(host, "audit.query", "{\"sessionId\":\"" + session + "\",\"limit\":10000}"),
                    a -> a.has("result")).get("result").get("rows");
            assertThat(callIds(rows)).as("every call that answered ok is audited").isEqualTo(answeredOk);
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
        } finally {
            run("umount", "-l", mount.toString());
        }
    }

    private static void fill(Path filler) throws IOException {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // the file system is full
        }
        try (OutputStream out = Files.newOutputStream(filler, java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                out.write(0);
                out.flush();
            }
        } catch (IOException full) {
            // to the last byte
        }
    }

    /** A refused mount fails the test loudly: a disk-full test on a roomy disk would prove nothing. */
    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("this test needs `" + String.join(" ", command) + "` (root, as in CI): "
                    + output.strip());
        }
    }
}
