package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.launcher.HostProcess.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins issue 13.1 end to end: an allow-session answer covers exactly what its card showed. An in-root
 * grant never covers an outside path (~/.bashrc, ~/.ssh/authorized_keys, a link Bash planted in the
 * workspace); an outside grant covers that canonical path only (not /etc/hosts beside /etc/hostname,
 * not a sibling id_rsa, not a.txt.bak, not a.txt/../b); a directory grant covers what is below it.
 */
class GrantScopeIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    /** Stands in for the user's home: outside the workspace and the data dir. */
    @TempDir
    Path home;

    @BeforeEach
    void files() throws Exception {
        Files.writeString(project.resolve("a.txt"), "in\n");
        Files.createDirectories(home.resolve(".ssh"));
        Files.writeString(home.resolve(".ssh").resolve("id_rsa"), "secret key\n");
        Files.writeString(home.resolve("a.txt"), "outside a\n");
        Files.writeString(home.resolve("a.txt.bak"), "outside bak\n");
        Files.writeString(home.resolve("b"), "outside b\n");
    }

    @Test
    void anInRootWriteGrantDoesNotReachOutsideFiles() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            int first = host.startTool(s, "w1", "Write", json("path", "new.txt", "content", "x"));
            JsonNode card = host.card("w1");
            assertThat(card.get("grantScope").get("inRoots").asBoolean()).isTrue();
            assertThat(card.get("grantScope").get("paths")).isEmpty();
            assertThat(card.get("grantScope").get("text").asText()).contains("inside the session's roots");
            host.resolve(card, "allow-session");
            assertThat(host.result(first).get("ok").asBoolean()).isTrue();
            host.okWithoutCard(s, "w2", "Write", json("path", "sub/other.txt", "content", "y"));

            Path bashrc = home.resolve(".bashrc");
            JsonNode outside = host.denyCard(s, "w3", "Write", json("path", bashrc.toString(), "content", "pwn"));
            assertThat(outside.get("externalPath").asText()).isEqualTo(home.toRealPath().resolve(".bashrc").toString());
            assertThat(outside.get("grantScope").get("inRoots").asBoolean()).isFalse();
            assertThat(outside.get("grantScope").get("paths").get(0).get("path").asText())
                    .isEqualTo(home.toRealPath().resolve(".bashrc").toString());
            assertThat(outside.get("grantScope").get("paths").get(0).get("below").asBoolean()).isFalse();
            Path keys = home.resolve(".ssh").resolve("authorized_keys");
            host.denyCard(s, "w4", "Write", json("path", keys.toString(), "content", "ssh-ed25519 AAAA"));
            // relative .. escapes are outside paths too
            host.denyCard(s, "w5", "Write", json("path", project.relativize(bashrc).toString(), "content", "pwn"));
            assertThat(bashrc).doesNotExist();
            assertThat(keys).doesNotExist();
        }
    }

    @Test
    void aLinkPlantedInTheWorkspaceIsAnOutsidePathWhateverTheGrant() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            int w = host.startTool(s, "w1", "Write", json("path", "new.txt", "content", "x"));
            host.resolve(host.card("w1"), "allow-session");
            assertThat(host.result(w).get("ok").asBoolean()).isTrue();
            int b = host.startTool(s, "b1", "Bash", json("command", "ln -s '" + home + "' planted"));
            host.resolve(host.card("b1"), "allow-session");
            assertThat(host.result(b).get("ok").asBoolean()).isTrue();
            assertThat(project.resolve("planted")).isSymbolicLink();

            JsonNode card = host.denyCard(s, "w2", "Write", json("path", "planted/.bashrc", "content", "pwn"));
            assertThat(card.get("externalPath").asText()).isEqualTo(home.toRealPath().resolve(".bashrc").toString());
            host.denyCard(s, "r1", "Read", json("path", "planted/.ssh/id_rsa"));
            assertThat(home.resolve(".bashrc")).doesNotExist();
        }
    }

    @Test
    void anOutsideReadGrantCoversThatCanonicalFileOnly() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            Path a = home.resolve("a.txt");
            int r = host.startTool(s, "r1", "Read", json("path", a.toString()));
            JsonNode card = host.card("r1");
            assertThat(card.get("grantScope").get("text").asText()).contains(a.toRealPath() + " only");
            host.resolve(card, "allow-session");
            assertThat(host.result(r).get("ok").asBoolean()).isTrue();
            // the same canonical file, however it is spelled, is covered
            host.okWithoutCard(s, "r2", "Read", json("path", a.toString()));
            host.okWithoutCard(s, "r3", "Read", json("path", home.resolve(".ssh/../a.txt").toString()));

            host.denyCard(s, "r4", "Read", json("path", home.resolve(".ssh/id_rsa").toString()));
            host.denyCard(s, "r5", "Read", json("path", home.resolve("a.txt.bak").toString()));
            JsonNode viaDots = host.denyCard(s, "r6", "Read", json("path", a + "/../b"));
            assertThat(viaDots.get("externalPath").asText()).isEqualTo(home.toRealPath().resolve("b").toString());
            host.denyCard(s, "g1", "Grep", json("pattern", "secret", "path", home.toString()));
            // the in-root scope was not granted by an outside card
            assertThat(host.cards("r7")).isZero();
            host.okWithoutCard(s, "r7", "Read", json("path", "a.txt"));
        }
    }

    @Test
    void anOutsideGrantOnASystemFileDoesNotCoverItsNeighbours() throws Exception {
        Path hostname = Path.of("/etc/hostname");
        Path hosts = Path.of("/etc/hosts");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(hostname) && Files.isRegularFile(hosts));
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            int r = host.startTool(s, "r1", "Read", json("path", hostname.toString()));
            host.resolve(host.card("r1"), "allow-session");
            assertThat(host.result(r).get("ok").asBoolean()).isTrue();
            host.okWithoutCard(s, "r2", "Read", json("path", hostname.toString()));
            host.denyCard(s, "r3", "Read", json("path", hosts.toString()));
        }
    }

    @Test
    void aDirectoryGrantCoversWhatIsBelowItOnly() throws Exception {
        try (HostProcess host = HostProcess.serve(data)) {
            String s = host.session(project, "ask");
            Path ssh = home.resolve(".ssh");
            int g = host.startTool(s, "g1", "Glob", json("pattern", "*", "path", ssh.toString()));
            JsonNode card = host.card("g1");
            assertThat(card.get("grantScope").get("paths").get(0).get("below").asBoolean()).isTrue();
            host.resolve(card, "allow-session");
            assertThat(host.result(g).get("ok").asBoolean()).isTrue();
            host.okWithoutCard(s, "g2", "Glob", json("pattern", "*", "path", ssh.toString()));
            host.denyCard(s, "g3", "Glob", json("pattern", "*", "path", home.toString()));
            host.denyCard(s, "r1", "Read", json("path", ssh.resolve("id_rsa").toString()));
        }
    }
}
