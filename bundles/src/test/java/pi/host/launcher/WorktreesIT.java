package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Isolated sessions end to end through the real {@code pi-host serve --stdio} process (spec §4e): the
 * worktree from the project's HEAD, the rules rooted in it, Bash's variables, the setup command, the
 * preview and merge with its token, conflicts kept in the worktree, and a worktree replaced by a link.
 */
class WorktreesIT {

    @TempDir
    Path data;
    @TempDir
    Path project;
    @TempDir
    Path elsewhere;

    private static String isolated(HostProcess host, Path projectRoot) throws IOException {
        return host.call("session.create", HostProcess.json("projectRoot", projectRoot.toString(), "permissionMode",
                "auto").replace("}", ",\"isolated\":true}")).get("sessionId").asText();
    }

    private static String errorCode(JsonNode answer) {
        return answer.path("error").path("data").path("errorCode").asText();
    }

    private static GitRepo projectRepo(Path project) throws Exception {
        Files.writeString(project.resolve("README.md"), "committed\n");
        Files.writeString(project.resolve("a.txt"), "one\ntwo\nthree\n");
        Files.writeString(project.resolve(".gitignore"), "secret.env\nbuild/\n");
        Files.writeString(project.resolve(".worktreeinclude"), "secret.env\n");
        Files.writeString(project.resolve("secret.env"), "TOKEN=1\n");
        Files.createDirectories(project.resolve("build"));
        Files.writeString(project.resolve("build/out.bin"), "not listed\n");
        return GitRepo.init(project);
    }

    /** Pins the lifecycle of an isolated session: made from HEAD, rooted in its worktree, merged, deleted. */
    @Test
    void anIsolatedSessionWorksInItsWorktreeFromCreateToMerge() throws Exception {
        Files.writeString(elsewhere.resolve("target.env"), "outside the project\n");
        GitRepo repo = projectRepo(project);
        Files.writeString(project.resolve(".gitignore"), "secret.env\nbuild/\nlinked.env\n");
        Files.writeString(project.resolve(".worktreeinclude"), "secret.env\nlinked.env\n");
        repo.commitAll("include the link too");
        Files.createSymbolicLink(project.resolve("linked.env"), elsewhere.resolve("target.env"));
        String projectHead = repo.head();
        Files.writeString(project.resolve("README.md"), "uncommitted\n");
        Files.writeString(project.resolve("untracked.txt"), "not copied\n");
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("settings.update", "{\"worktree.setupCommands\":{\"" + project.toRealPath()
                    + "\":\"echo \\\"$PI_PORT|$PI_PROJECT_ROOT|$PI_WORKTREE_ROOT\\\" > setup.txt; echo set up\"}}");
            String session = isolated(host, project);
            JsonNode view = host.call("session.get", HostProcess.json("sessionId", session));
            JsonNode worktree = view.get("worktree");
            Path path = Path.of(worktree.get("path").asText());
            assertThat(worktree.get("state").asText()).isEqualTo("ready");
            assertThat(path.getParent().getParent()).isEqualTo(data.toRealPath().resolve("worktrees"));
            assertThat(path.getFileName().toString()).isEqualTo(session);
            assertThat(worktree.get("branch").asText()).isEqualTo("pi-desktop/" + session);
            assertThat(worktree.get("base").asText()).isEqualTo(projectHead);
            assertThat(view.get("workspaceRoot").asText()).isEqualTo(path.toString());
            assertThat(view.get("projectRoot").asText()).isEqualTo(project.toRealPath().toString());
            assertThat(repo.branches()).contains("pi-desktop/" + session);
            int port = worktree.get("port").asInt();
            assertThat(port).isBetween(41000, 48990);
            assertThat(port % 10).isZero();

            // from HEAD: the project's uncommitted and untracked files stay behind; .worktreeinclude is copied
            assertThat(Files.readString(path.resolve("README.md"))).isEqualTo("committed\n");
            assertThat(path.resolve("untracked.txt")).doesNotExist();
            assertThat(Files.readString(path.resolve("secret.env"))).isEqualTo("TOKEN=1\n");
            assertThat(path.resolve("build")).doesNotExist();
            assertThat(Files.exists(path.resolve("linked.env"), LinkOption.NOFOLLOW_LINKS)).as("a link is not copied")
                    .isFalse();
            assertThat(worktree.get("included").get("copied").toString()).isEqualTo("[\"secret.env\"]");
            assertThat(worktree.get("included").get("skipped").has("linked.env")).isTrue();

            // the setup command ran once in it, with the same variables, and its output is kept
            JsonNode setup = worktree.get("setup");
            assertThat(setup.get("state").asText()).as(setup.toString()).isEqualTo("succeeded");
            assertThat(setup.get("stdout").asText()).isEqualTo("set up\n");
            String vars = port + "|" + project.toRealPath() + "|" + path;
            assertThat(Files.readString(path.resolve("setup.txt"))).isEqualTo(vars + "\n");

            // file tools and Bash work in the worktree, never in the project
            JsonNode read = host.tool(session, "c1", "Read", "{\"path\":\"README.md\"}");
            assertThat(read.get("content").get(0).get("text").asText()).contains("committed").doesNotContain("uncommitted");
            JsonNode write = host.tool(session, "c2", "Write", "{\"path\":\"new.txt\",\"content\":\"made in the worktree\\n\"}");
            assertThat(write.get("ok").asBoolean()).as(write.toString()).isTrue();
            assertThat(path.resolve("new.txt")).exists();
            assertThat(project.resolve("new.txt")).doesNotExist();
            assertThat(write.get("review")).as("the worktree's files get review records").hasSize(1);
            assertThat(write.get("review").get(0).get("path").asText()).isEqualTo("new.txt");
            JsonNode bash = host.tool(session, "c3", "Bash",
                    "{\"command\":\"echo \\\"$PI_PORT|$PI_PROJECT_ROOT|$PI_WORKTREE_ROOT\\\"; pwd\"}");
            assertThat(bash.get("details").get("stdout").asText()).isEqualTo(vars + "\n" + path + "\n");

            // the preview names the files and commits; a wrong token is refused and nothing moves
            JsonNode preview = host.call("worktree.mergePreview", HostProcess.json("sessionId", session));
            assertThat(preview.get("pendingChanges").asBoolean()).isTrue();
            assertThat(preview.get("files").toString()).contains("\"path\":\"new.txt\"", "\"path\":\"setup.txt\"");
            assertThat(preview.get("targetHead").asText()).isEqualTo(projectHead);
            JsonNode wrong = host.request(10, "worktree.merge", HostProcess.json("sessionId", session,
                    "previewToken", "00"));
            assertThat(errorCode(wrong)).isEqualTo("WORKTREE_STALE");
            assertThat(repo.head()).isEqualTo(projectHead);

            // a change after the preview makes its token stale
            String token = host.call("worktree.mergePreview", HostProcess.json("sessionId", session))
                    .get("previewToken").asText();
            host.tool(session, "c4", "Write", "{\"path\":\"later.txt\",\"content\":\"after the preview\\n\"}");
            JsonNode stale = host.request(11, "worktree.merge", HostProcess.json("sessionId", session,
                    "previewToken", token));
            assertThat(errorCode(stale)).isEqualTo("WORKTREE_STALE");
            assertThat(repo.head()).isEqualTo(projectHead);

            // merged: the project fast-forwards (no merge commit), its own uncommitted change is untouched
            token = host.call("worktree.mergePreview", HostProcess.json("sessionId", session))
                    .get("previewToken").asText();
            JsonNode merged = host.call("worktree.merge", HostProcess.json("sessionId", session, "previewToken", token));
            assertThat(merged.get("status").asText()).as(merged.toString()).isEqualTo("merged");
            assertThat(repo.head()).isEqualTo(merged.get("targetHead").asText()).isNotEqualTo(projectHead);
            assertThat(repo.git("rev-list", "--merges", "--count", projectHead + "..HEAD").strip()).isEqualTo("0");
            assertThat(Files.readString(project.resolve("new.txt"))).isEqualTo("made in the worktree\n");
            assertThat(Files.readString(project.resolve("README.md"))).isEqualTo("uncommitted\n");
            JsonNode again = host.request(12, "worktree.merge", HostProcess.json("sessionId", session,
                    "previewToken", token));
            assertThat(errorCode(again)).as("a token is used once").isEqualTo("WORKTREE_STALE");

            // deleting the session removes the worktree, its registration and its branch
            host.call("session.delete", HostProcess.json("sessionId", session));
            assertThat(path).doesNotExist();
            assertThat(repo.branches()).doesNotContain("pi-desktop/" + session);
            assertThat(repo.git("worktree", "list", "--porcelain")).doesNotContain(path.toString());
        }
    }

    /** Pins "conflicts stay in the worktree": the project branch moved, the merge stops with files named. */
    @Test
    void aConflictStaysInTheWorktreeWithItsFilesNamed() throws Exception {
        GitRepo repo = projectRepo(project);
        try (HostProcess host = HostProcess.serve(data)) {
            String session = isolated(host, project);
            Path path = Path.of(host.call("session.get", HostProcess.json("sessionId", session))
                    .get("worktree").get("path").asText());
            Files.writeString(project.resolve("a.txt"), "one\nproject\nthree\n");
            repo.commitAll("project side");
            String projectHead = repo.head();
            JsonNode bash = host.tool(session, "c1", "Bash", "{\"command\":\"printf 'one\\\\nworktree\\\\nthree\\\\n' > a.txt\"}");
            assertThat(bash.get("ok").asBoolean()).as(bash.toString()).isTrue();

            JsonNode preview = host.call("worktree.mergePreview", HostProcess.json("sessionId", session));
            assertThat(preview.get("behind").asInt()).isEqualTo(1);
            JsonNode merged = host.call("worktree.merge", HostProcess.json("sessionId", session, "previewToken",
                    preview.get("previewToken").asText()));
            assertThat(merged.get("status").asText()).as(merged.toString()).isEqualTo("conflict");
            assertThat(merged.get("conflicts").toString()).isEqualTo("[\"a.txt\"]");
            assertThat(repo.head()).isEqualTo(projectHead);
            assertThat(Files.readString(project.resolve("a.txt"))).isEqualTo("one\nproject\nthree\n");
            assertThat(Files.readString(path.resolve("a.txt"))).contains("<<<<<<<", "project", "worktree");
            JsonNode later = host.call("worktree.mergePreview", HostProcess.json("sessionId", session));
            assertThat(later.get("conflicts").toString()).isEqualTo("[\"a.txt\"]");
            assertThat(later.get("canMerge").asBoolean()).isFalse();
        }
    }

    /**
     * Pins WORKTREE_MISSING for a worktree folder (or a folder down to the project subdirectory) replaced
     * by a link: never used, merged or synced, and deleting the session removes only the link.
     */
    @Test
    void aWorktreeReplacedByALinkIsMissingAndDeletingRemovesOnlyTheLink() throws Exception {
        Files.createDirectories(project.resolve("sub"));
        Files.writeString(project.resolve("sub/file.txt"), "in sub\n");
        GitRepo repo = projectRepo(project);
        Files.writeString(elsewhere.resolve("file.txt"), "the link's target\n");
        try (HostProcess host = HostProcess.serve(data)) {
            String whole = isolated(host, project);
            String sub = isolated(host, project.resolve("sub"));
            Path wholePath = Path.of(host.call("session.get", HostProcess.json("sessionId", whole))
                    .get("worktree").get("path").asText());
            JsonNode subView = host.call("session.get", HostProcess.json("sessionId", sub));
            Path subPath = Path.of(subView.get("worktree").get("path").asText());
            assertThat(subView.get("workspaceRoot").asText()).isEqualTo(subPath.resolve("sub").toString());
            assertThat(host.tool(sub, "c0", "Read", "{\"path\":\"file.txt\"}").get("ok").asBoolean()).isTrue();

            // the worktree folder itself, and the project subdirectory inside another, become links
            Files.move(wholePath, elsewhere.resolve("moved-whole"));
            Files.createSymbolicLink(wholePath, elsewhere);
            Files.move(subPath.resolve("sub"), elsewhere.resolve("moved-sub"));
            Files.createSymbolicLink(subPath.resolve("sub"), elsewhere);
            for (String session : new String[] {whole, sub}) {
                JsonNode read = host.tool(session, "r-" + session, "Read", "{\"path\":\"file.txt\"}");
                assertThat(read.get("errorCode").asText()).as(read.toString()).isEqualTo("WORKTREE_MISSING");
                JsonNode write = host.tool(session, "w-" + session, "Write", "{\"path\":\"file.txt\",\"content\":\"x\"}");
                assertThat(write.get("errorCode").asText()).isEqualTo("WORKTREE_MISSING");
                JsonNode bash = host.tool(session, "b-" + session, "Bash", "{\"command\":\"touch ran\"}");
                assertThat(bash.get("errorCode").asText()).isEqualTo("WORKTREE_MISSING");
                assertThat(errorCode(host.request(host.nextRequestId(), "worktree.mergePreview",
                        HostProcess.json("sessionId", session)))).isEqualTo("WORKTREE_MISSING");
                assertThat(host.call("session.get", HostProcess.json("sessionId", session)).get("worktree")
                        .get("state").asText()).isEqualTo("missing");
                assertThat(host.auditRow(session, "w-" + session).get("errorCode").asText())
                        .isEqualTo("WORKTREE_MISSING");
            }
            assertThat(Files.readString(elsewhere.resolve("file.txt"))).isEqualTo("the link's target\n");
            assertThat(elsewhere.resolve("ran")).doesNotExist();
            assertThat(project.resolve("ran")).doesNotExist();
            assertThat(project.resolve("sub/ran")).doesNotExist();

            host.call("session.delete", HostProcess.json("sessionId", whole));
            host.call("session.delete", HostProcess.json("sessionId", sub));
            assertThat(Files.exists(wholePath, LinkOption.NOFOLLOW_LINKS)).as("the link is removed").isFalse();
            assertThat(Files.exists(subPath, LinkOption.NOFOLLOW_LINKS)).isFalse();
            assertThat(Files.readString(elsewhere.resolve("file.txt"))).as("its target is not").isEqualTo(
                    "the link's target\n");
            assertThat(elsewhere.resolve("moved-whole/README.md")).exists();
            assertThat(elsewhere.resolve("moved-sub/file.txt")).exists();
            assertThat(repo.branches()).doesNotContain("pi-desktop/" + whole, "pi-desktop/" + sub);
        }
    }

    /** Pins "a worktree is its own session's root only": another session's worktree is host state. */
    @Test
    void anotherSessionsWorktreeIsRefusedAsHostState() throws Exception {
        projectRepo(project);
        try (HostProcess host = HostProcess.serve(data)) {
            String mine = isolated(host, project);
            String theirs = isolated(host, project);
            Path theirPath = Path.of(host.call("session.get", HostProcess.json("sessionId", theirs))
                    .get("worktree").get("path").asText());
            JsonNode read = host.tool(mine, "c1", "Read", HostProcess.json("path", theirPath.resolve("a.txt").toString()));
            assertThat(read.get("errorCode").asText()).as(read.toString()).isEqualTo("TOOL_DENIED");
            JsonNode write = host.tool(mine, "c2", "Write", HostProcess.json("path",
                    theirPath.resolve("a.txt").toString(), "content", "overwritten"));
            assertThat(write.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
            assertThat(Files.readString(theirPath.resolve("a.txt"))).isEqualTo("one\ntwo\nthree\n");
            // a plain session of the same project cannot reach into the worktrees either
            String plain = host.session(project, "auto");
            JsonNode plainRead = host.tool(plain, "c3", "Read", HostProcess.json("path",
                    theirPath.resolve("a.txt").toString()));
            assertThat(plainRead.get("errorCode").asText()).isEqualTo("TOOL_DENIED");
        }
    }

    /** Pins the PI_PORT rule: a block is given only when all ten ports are free, and freed with the session. */
    @Test
    void aPortBlockIsGivenOnlyWhenAllTenAreFreeAndReleasedWithTheSession() throws Exception {
        projectRepo(project);
        int first = firstFreeBlock();
        try (ServerSocket taken = new ServerSocket(); HostProcess host = HostProcess.serve(data)) {
            taken.bind(new InetSocketAddress(first + 5));
            String one = isolated(host, project);
            int p1 = host.call("session.get", HostProcess.json("sessionId", one)).get("worktree").get("port").asInt();
            assertThat(first + 5 >= p1 && first + 5 <= p1 + 9).as("the block holding a taken port is skipped: " + p1)
                    .isFalse();
            String two = isolated(host, project);
            int p2 = host.call("session.get", HostProcess.json("sessionId", two)).get("worktree").get("port").asInt();
            assertThat(p2).as("a held block is not given twice").isNotEqualTo(p1);
            host.call("session.delete", HostProcess.json("sessionId", one));
            String three = isolated(host, project);
            int p3 = host.call("session.get", HostProcess.json("sessionId", three)).get("worktree").get("port").asInt();
            assertThat(p3).as("the deleted session's block is free again").isEqualTo(p1);
        }
    }

    /** Pins "isolated needs a git project": a folder without a repository is refused and nothing is made. */
    @Test
    void anIsolatedSessionOutsideAGitProjectIsRefused() throws Exception {
        Files.writeString(project.resolve("a.txt"), "no repository\n");
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode refused = host.request(1, "session.create", HostProcess.json("projectRoot", project.toString())
                    .replace("}", ",\"isolated\":true}"));
            assertThat(errorCode(refused)).as(refused.toString()).isEqualTo("WORKTREE_UNAVAILABLE");
            assertThat(host.call("session.list", "{}")).isEmpty();
            assertThat(data.resolve("worktrees")).doesNotExist();
        }
    }

    /** Pins "the setup command is bounded": past its timeout its whole tree is killed, and the outcome kept. */
    @Test
    void aSetupCommandPastItsTimeoutIsKilledAndReported() throws Exception {
        projectRepo(project);
        Path pidFile = elsewhere.resolve("sleeper.pid");
        try (HostProcess host = HostProcess.serve(data)) {
            host.call("settings.update", "{\"worktree.setupTimeoutSeconds\":1,\"worktree.setupCommands\":{\""
                    + project.toRealPath() + "\":\"echo started; sleep 300 & echo $! > " + pidFile + "; wait\"}}");
            String session = isolated(host, project);
            JsonNode setup = host.call("session.get", HostProcess.json("sessionId", session)).get("worktree").get("setup");
            assertThat(setup.get("state").asText()).as(setup.toString()).isEqualTo("timedOut");
            assertThat(setup.get("exitCode").isNull()).isTrue();
            assertThat(setup.get("stdout").asText()).isEqualTo("started\n");
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
            // the session works anyway: a failed setup is reported, not fatal
            assertThat(host.tool(session, "c1", "Read", "{\"path\":\"a.txt\"}").get("ok").asBoolean()).isTrue();
        }
    }

    /** Pins that the worktree is the host's record, not a guess: after a restart the session works in it. */
    @Test
    void anIsolatedSessionKeepsItsWorktreeAcrossARestart() throws Exception {
        projectRepo(project);
        String session;
        Path path;
        try (HostProcess host = HostProcess.serve(data)) {
            session = isolated(host, project);
            path = Path.of(host.call("session.get", HostProcess.json("sessionId", session)).get("workspaceRoot").asText());
        }
        try (HostProcess host = HostProcess.serve(data)) {
            JsonNode view = host.call("session.get", HostProcess.json("sessionId", session));
            assertThat(view.get("worktree").get("state").asText()).isEqualTo("ready");
            host.tool(session, "c1", "Write", "{\"path\":\"after.txt\",\"content\":\"x\"}");
            assertThat(path.resolve("after.txt")).exists();
            assertThat(project.resolve("after.txt")).doesNotExist();
        }
    }

    private static int firstFreeBlock() {
        for (int base = 41000; base <= 48990; base += 10) {
            boolean free = true;
            for (int p = base; p < base + 10 && free; p++) {
                try (ServerSocket s = new ServerSocket()) {
                    s.bind(new InetSocketAddress(p));
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new AssertionError("no free port block in 41000-48999");
    }
}
