package org.example.gitinfo;

import static org.example.gitinfo.TestRepo.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

/**
 * Pins issue 12.5: a {@code .git} file or {@code core.worktree} pointing out of the workspace made
 * the plugin print another repository's history or files outside the workspace, in Plan too. Every
 * action is refused when any part of the repository lies outside; plain git shows what it would have
 * printed.
 */
class RepositoryLocationTest {

    private static final List<Map<String, Object>> EVERY_ACTION = List.of(Map.of("action", "status"),
            Map.of("action", "log"), Map.of("action", "diff"), Map.of("action", "commit", "message", "m"));

    @TempDir
    Path tmp;

    private TestRepo outside;
    private Path workspace;

    @BeforeEach
    void init() throws Exception {
        outside = new TestRepo(tmp.resolve("elsewhere"), tmp);
        outside.commit("secret.txt", "outside\n", "the other repository's history");
        workspace = Files.createDirectories(tmp.resolve("workspace"));
    }

    private void assertEveryActionRefused(String what) throws Exception {
        String before = outside.git("rev-parse", "HEAD");
        for (Map<String, Object> args : EVERY_ACTION) {
            ToolResult r = new GitTool().execute(new FakeToolCall(workspace, args));
            assertEquals(ErrorCode.PERMISSION_DENIED, r.errorCode(), () -> args + ": " + r);
            assertTrue(text(r).startsWith("the repository's " + what + " is "), text(r));
            assertTrue(text(r).contains("outside the workspace " + workspace.toRealPath()), text(r));
            assertFalse(text(r).contains("the other repository's history"), text(r));
        }
        assertEquals(before, outside.git("rev-parse", "HEAD"), "no commit was made there");
    }

    @Test
    void aGitFileLeadingOutOfTheWorkspaceIsRefused() throws Exception {
        Files.writeString(workspace.resolve(".git"), "gitdir: " + outside.root.resolve(".git") + "\n");
        assertTrue(plainGit("log", "--oneline").contains("the other repository's history"));
        assertEveryActionRefused("git dir");
    }

    @Test
    void aGitDirLinkedOutOfTheWorkspaceIsRefused() throws Exception {
        Files.createSymbolicLink(workspace.resolve(".git"), outside.root.resolve(".git"));
        assertTrue(plainGit("log", "--oneline").contains("the other repository's history"));
        assertEveryActionRefused("git dir");
    }

    @Test
    void aWorkTreeOutsideTheWorkspaceIsRefused() throws Exception {
        new TestRepo(workspace, tmp.resolve("own"));
        plainGit("config", "core.worktree", outside.root.toString());
        assertTrue(plainGit("status", "--short").contains("secret.txt"), "plain git lists the files out there");
        assertEveryActionRefused("work tree");
    }

    /** A linked worktree of a repository elsewhere: its git dir is inside, its common dir (objects, refs) is not. */
    @Test
    void aLinkedWorktreeOfARepositoryOutsideIsRefused() throws Exception {
        Files.delete(workspace);
        outside.git("worktree", "add", "-q", workspace.toString());
        Files.move(outside.root.resolve(".git/worktrees/workspace"), workspace.resolve(".wt"));
        Files.writeString(workspace.resolve(".wt/commondir"), outside.root.resolve(".git") + "\n");
        Files.writeString(workspace.resolve(".git"), "gitdir: " + workspace.resolve(".wt") + "\n");
        assertTrue(plainGit("log", "--oneline").contains("the other repository's history"));
        assertEveryActionRefused("common git dir");
    }

    @Test
    void objectsBorrowedFromARepositoryOutsideAreRefused() throws Exception {
        Files.delete(workspace);
        outside.git("clone", "-q", "--shared", outside.root.toString(), workspace.toString());
        assertTrue(plainGit("log", "--oneline").contains("the other repository's history"));
        assertEveryActionRefused("alternate object store");
    }

    /** A linked worktree its repository registered (git worktree add) reads that repository, as git itself does. */
    @Test
    void aRegisteredLinkedWorktreeOfARepositoryElsewhereIsRead() throws Exception {
        Files.delete(workspace);
        outside.git("worktree", "add", "-q", "-b", "side", workspace.toString());
        ToolResult r = new GitTool().execute(new FakeToolCall(workspace, Map.of("action", "log")));
        assertTrue(r.ok(), r::toString);
        assertTrue(text(r).contains("the other repository's history"), text(r));
    }

    /** The git dir of another repository's worktree is refused: that repository registered a different folder. */
    @Test
    void aGitFilePointingAtAnotherWorktreesGitDirIsRefused() throws Exception {
        outside.git("worktree", "add", "-q", "-b", "side", tmp.resolve("elsewhere-worktree").toString());
        Files.writeString(workspace.resolve(".git"), "gitdir: " + outside.root.resolve(".git/worktrees/elsewhere-worktree")
                + "\n");
        assertTrue(plainGit("log", "--oneline").contains("the other repository's history"));
        assertEveryActionRefused("git dir");
    }

    @Test
    void aBareRepositoryAsTheWorkspaceIsNotUsed() throws Exception {
        Files.delete(workspace);
        outside.git("clone", "-q", "--bare", outside.root.toString(), workspace.toString());
        assertTrue(plainGit("log", "--oneline").contains("the other repository's history"));
        for (Map<String, Object> args : EVERY_ACTION) {
            ToolResult r = new GitTool().execute(new FakeToolCall(workspace, args));
            assertEquals(ErrorCode.TOOL_FAILED, r.errorCode(), () -> args + ": " + r);
            assertTrue(text(r).contains("cannot use bare repository"), text(r));
        }
    }

    private String plainGit(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", workspace.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
