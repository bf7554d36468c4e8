package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.launcher.HostProcess.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 13.3 end to end: a Write or Edit of a repository control file ({@code .git/…} in any case,
 * {@code .gitattributes}, {@code .gitmodules}, the project's {@code .pi/} configuration) always shows a
 * card under ask and accept-edits, and a grant covers only the file its card named; the host-written
 * {@code .pi/plan/} artifacts and ordinary files stay card-free under accept-edits; auto stays auto.
 */
class ControlFilesIT {

    @TempDir
    Path data;
    @TempDir
    Path project;

    /** The kit's denied card, which must say it is about a repository control file. */
    private static JsonNode deniedCard(HostProcess host, String session, String callId, String tool, String args)
            throws Exception {
        JsonNode card = host.denyCard(session, callId, tool, args);
        assertThat(card.get("reason").asText()).contains("repository control file");
        return card;
    }

    @Test
    void acceptEditsConfirmsEveryControlFileAndNothingElse() throws Exception {
        Files.createDirectories(project.resolve(".git/hooks"));
        Files.writeString(project.resolve(".git/config"), "[core]\n\tbare = false\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "accept-edits");
            host.okWithoutCard(s, "w0", "Write", json("path", "src/a.txt", "content", "ordinary"));
            host.okWithoutCard(s, "w1", "Write", json("path", ".pi/plan/p.md", "content", "# a plan artifact"));
            host.okWithoutCard(s, "w2", "Write", json("path", ".gitignore", "content", "target/\n"));

            deniedCard(host, s, "c1", "Write", json("path", ".git/config", "content",
                    "[core]\n\tfsmonitor = touch /tmp/pwned\n"));
            deniedCard(host, s, "c2", "Write", json("path", ".git/hooks/pre-commit", "content", "#!/bin/sh\n"));
            deniedCard(host, s, "c3", "Write", json("path", ".gitattributes", "content", "* filter=x\n"));
            deniedCard(host, s, "c4", "Write", json("path", "lib/.gitmodules", "content", "[submodule]\n"));
            deniedCard(host, s, "c5", "Write", json("path", ".pi/agents/evil.md", "content", "---\nname: e\n---\n"));
            deniedCard(host, s, "c6", "Write", json("path", ".GIT/config", "content", "x"));
            deniedCard(host, s, "c7", "Write", json("path", "vendor/dep/.git/config", "content", "x"));

            JsonNode read = host.tool(s, "r1", "Read", json("path", ".git/config"));
            assertThat(read.get("ok").asBoolean()).as("reading is not changing").isTrue();
            String tag = read.get("details").get("tag").asText();
            deniedCard(host, s, "e1", "Edit", json("path", ".git/config", "tag", tag, "ops",
                    "PUT >$:\n+\tsshCommand = touch /tmp/pwned\n"));

            assertThat(project.resolve(".git/config")).hasContent("[core]\n\tbare = false");
            assertThat(project.resolve(".git/hooks/pre-commit")).doesNotExist();
            assertThat(project.resolve(".gitattributes")).doesNotExist();
            assertThat(project.resolve(".pi/agents/evil.md")).doesNotExist();
        }
    }

    @Test
    void aGrantCoversOnlyTheControlFileItsCardNamed() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            int w = host.startTool(s, "w1", "Write", json("path", "a.txt", "content", "x"));
            host.resolve(host.card("w1"), "allow-session");
            assertThat(host.result(w).get("ok").asBoolean()).isTrue();
            // the in-root grant does not reach a control file
            int c = host.startTool(s, "c1", "Write", json("path", ".git/config", "content", "[core]\n"));
            JsonNode card = host.card("c1");
            assertThat(card.get("grantScope").get("inRoots").asBoolean()).isFalse();
            assertThat(card.get("grantScope").get("paths").get(0).get("path").asText())
                    .isEqualTo(project.toRealPath().resolve(".git/config").toString());
            host.resolve(card, "allow-session");
            assertThat(host.result(c).get("ok").asBoolean()).isTrue();
            host.okWithoutCard(s, "c2", "Write", json("path", ".git/config", "content", "[core]\n\tbare = false\n"));
            deniedCard(host, s, "c3", "Write", json("path", ".git/hooks/post-checkout", "content", "#!/bin/sh\n"));
            assertThat(project.resolve(".git/hooks/post-checkout")).doesNotExist();
        }
    }

    @Test
    void autoStaysAuto() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "auto");
            host.okWithoutCard(s, "c1", "Write", json("path", ".git/config", "content", "[core]\n"));
            host.okWithoutCard(s, "c2", "Write", json("path", ".pi/agents/helper.md", "content", "---\nname: h\n---\n"));
            assertThat(project.resolve(".git/config")).exists();
        }
    }
}
