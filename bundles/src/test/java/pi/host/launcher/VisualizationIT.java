package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session visualization dir end to end through the real {@code pi-host serve --stdio} process (spec
 * §4b.1): off by default, advertised when on, made lazily, absolute *.html names only, no card and no
 * review record, the static check in the result, {@code visualization.read} refusing links, removal
 * with the session and the start-up sweep that never follows a redirected base.
 */
class VisualizationIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    @TempDir
    Path elsewhere;

    private static String errorCode(JsonNode answer) {
        return answer.path("error").path("data").path("errorCode").asText();
    }

    private static String write(String path, String content) {
        return HostProcess.json("path", path, "content", content);
    }

    /** Pins the root's rules: advertised only when on, lazy, *.html only, no card, no review, the static check. */
    @Test
    void aFragmentIsWrittenWithoutACardAndCheckedWithoutRunning() throws Exception {
        Files.writeString(project.resolve("a.txt"), "project\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String session = host.session(project, "ask");
            Path dir = data.toRealPath().resolve("visualizations").resolve(session);
            // off: no dir advertised, and the place is host state like the rest of the data dir
            assertThat(host.call("session.get", HostProcess.json("sessionId", session)).has("visualizationDir")).isFalse();
            JsonNode off = host.tool(session, "c0", "Write", write(dir.resolve("a.html").toString(), "<p>x</p>"));
            assertThat(off.get("errorCode").asText()).as(off.toString()).isEqualTo("TOOL_DENIED");
            assertThat(dir).doesNotExist();

            host.call("settings.update", "{\"inlineVisualizations\":true}");
            JsonNode view = host.call("session.get", HostProcess.json("sessionId", session));
            assertThat(view.get("visualizationDir").asText()).isEqualTo(dir.toString());
            assertThat(dir).as("made lazily, on the first write").doesNotExist();

            String fragment = "<div id=\"chart\"></div>\n<script>\nviz.chart('chart', [1, 2]);\n"
                    + "document.getElementById('legend');\nrequire('child_process').execSync('touch "
                    + elsewhere.resolve("ran") + "');\n</script>\n<script>function( {</script>";
            JsonNode ok = host.okWithoutCard(session, "c1", "Write", write(dir.resolve("chart.html").toString(), fragment));
            assertThat(ok.get("root").asText()).isEqualTo("visualization");
            assertThat(ok.get("review")).as("no review record").isEmpty();
            JsonNode check = ok.get("details").get("staticCheck");
            assertThat(check.get("scripts").asInt()).isEqualTo(2);
            assertThat(check.get("ok").asBoolean()).isFalse();
            assertThat(check.get("problems").toString()).contains("getElementById(\\\"legend\\\") names no element")
                    .contains("script 2").doesNotContain("chart\\\")");
            assertThat(elsewhere.resolve("ran")).as("nothing of the fragment ran").doesNotExist();
            assertThat(Files.readString(dir.resolve("chart.html"))).isEqualTo(fragment);
            assertThat(host.auditRow(session, "c1").get("decision").asText()).isEqualTo("allow");

            // only one *.html name directly in the dir; relative paths never resolve there
            for (String bad : new String[] {dir.resolve("notes.txt").toString(), dir.resolve("sub/x.html").toString(),
                    dir.resolve(".html").getParent().resolve("..").resolve(session).resolve("x.htm").toString()}) {
                JsonNode refused = host.tool(session, "bad-" + bad.hashCode(), "Write", write(bad, "<p>x</p>"));
                assertThat(refused.get("errorCode").asText()).as(bad + " " + refused).isEqualTo("INVALID_ARGUMENT");
            }
            assertThat(dir.resolve("notes.txt")).doesNotExist();
            assertThat(dir.resolve("sub")).doesNotExist();
            host.denyCard(session, "c2", "Write", write("chart.html", "<p>workspace</p>"));
            assertThat(project.resolve("chart.html")).doesNotExist();

            // Read is allowed; visualization.read serves the bytes of a regular file
            assertThat(host.okWithoutCard(session, "c3", "Read", HostProcess.json("path", dir.resolve("chart.html")
                    .toString())).get("root").asText()).isEqualTo("visualization");
            JsonNode served = host.call("visualization.read", HostProcess.json("sessionId", session, "file", "chart.html"));
            assertThat(new String(Base64.getDecoder().decode(served.get("base64").asText()), StandardCharsets.UTF_8))
                    .isEqualTo(fragment);

            // deleting the session removes its dir
            host.call("session.delete", HostProcess.json("sessionId", session));
            assertThat(dir).doesNotExist();
        }
    }

    /** Pins "visualization.read serves only regular non-link files up to 2 MB of a real dir". */
    @Test
    void readingRefusesAFileSwappedForALinkAndOversizedFiles() throws Exception {
        Files.writeString(elsewhere.resolve("secret.html"), "<p>another session's card</p>");
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("settings.update", "{\"inlineVisualizations\":true}");
            String session = host.session(project, "auto");
            Path dir = Path.of(host.call("session.get", HostProcess.json("sessionId", session))
                    .get("visualizationDir").asText());
            host.okWithoutCard(session, "c1", "Write", write(dir.resolve("card.html").toString(), "<p>mine</p>"));

            Files.delete(dir.resolve("card.html"));
            Files.createSymbolicLink(dir.resolve("card.html"), elsewhere.resolve("secret.html"));
            JsonNode swapped = host.request(1, "visualization.read", HostProcess.json("sessionId", session,
                    "file", "card.html"));
            assertThat(errorCode(swapped)).as(swapped.toString()).isEqualTo("TOOL_DENIED");
            assertThat(swapped.toString()).doesNotContain("another session");

            Files.write(dir.resolve("big.html"), new byte[2_000_001]);
            assertThat(errorCode(host.request(2, "visualization.read", HostProcess.json("sessionId", session,
                    "file", "big.html")))).isEqualTo("PAYLOAD_TOO_LARGE");
            for (String bad : new String[] {"../x.html", "sub/x.html", ".."}) {
                JsonNode refused = host.request(host.nextRequestId(), "visualization.read",
                        HostProcess.json("sessionId", session, "file", bad));
                assertThat(refused.get("error").get("code").asInt()).as(bad).isEqualTo(-32602);
            }

            // the session folder replaced by a link to another folder: neither served nor written through
            Files.writeString(elsewhere.resolve("other.html"), "<p>other</p>");
            Path moved = elsewhere.resolve("moved");
            Files.move(dir, moved);
            Files.createSymbolicLink(dir, elsewhere);
            JsonNode redirected = host.request(3, "visualization.read", HostProcess.json("sessionId", session,
                    "file", "other.html"));
            assertThat(errorCode(redirected)).as(redirected.toString()).isEqualTo("TOOL_DENIED");
            JsonNode written = host.tool(session, "c2", "Write", write(dir.resolve("new.html").toString(), "<p>n</p>"));
            assertThat(written.get("ok").asBoolean()).as(written.toString()).isFalse();
            assertThat(elsewhere.resolve("new.html")).doesNotExist();

            host.call("session.delete", HostProcess.json("sessionId", session));
            assertThat(Files.exists(dir, LinkOption.NOFOLLOW_LINKS)).as("only the link goes").isFalse();
            assertThat(elsewhere.resolve("other.html")).exists();
            assertThat(elsewhere.resolve("secret.html")).exists();
        }
    }

    /** Pins the sweep: orphans go at start-up, a live session's folder stays, a redirected base is not traversed. */
    @Test
    void theStartUpSweepRemovesOnlyOrphansAndNeverFollowsARedirectedBase() throws Exception {
        String live;
        Path dir;
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("settings.update", "{\"inlineVisualizations\":true}");
            live = host.session(project, "auto");
            dir = Path.of(host.call("session.get", HostProcess.json("sessionId", live)).get("visualizationDir").asText());
            host.okWithoutCard(live, "c1", "Write", write(dir.resolve("old.html").toString(), "<p>old</p>"));
        }
        Files.setLastModifiedTime(dir.resolve("old.html"), java.nio.file.attribute.FileTime.fromMillis(0));
        Files.setLastModifiedTime(dir, java.nio.file.attribute.FileTime.fromMillis(0));
        Path orphan = Files.createDirectories(dir.getParent().resolve("sess_gone"));
        Files.writeString(orphan.resolve("x.html"), "<p>orphan</p>");
        try (HostProcess host = HostProcess.serve(data)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(orphan));
            assertThat(dir.resolve("old.html")).as("a live session's card never expires by age").exists();
            host.call("session.get", HostProcess.json("sessionId", live));
        }

        // a second data dir whose visualizations base is a link: the sweep does not go through it
        Path other = Files.createDirectories(elsewhere.resolve("data"));
        Path target = Files.createDirectories(elsewhere.resolve("target/sess_nobody"));
        Files.writeString(target.resolve("keep.html"), "<p>keep</p>");
        Files.createSymbolicLink(other.resolve("visualizations"), elsewhere.resolve("target"));
        // the scratch folders are swept after the visualizations: an orphan there gone means the sweep is done
        Path scratchOrphan = Files.createDirectories(other.resolve("scratch/sess_gone"));
        try (HostProcess host = HostProcess.serve(other)) {
            host.call("session.list", "{}");
            await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(scratchOrphan));
            assertThat(target.resolve("keep.html")).as("nothing swept through the redirected base").exists();
        }
    }
}
