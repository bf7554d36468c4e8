package org.example.gitinfo;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

/** The git tool against a real repository in a temporary folder, with the real git. */
class GitToolTest {

    @TempDir
    Path repo;
    @TempDir
    Path bin;

    private final GitTool tool = new GitTool();

    @BeforeEach
    void init() throws Exception {
        git("init", "-q", "-b", "main");
        git("config", "user.name", "Test Author");
        git("config", "user.email", "author@example.org");
        git("config", "commit.gpgsign", "false");
    }

    @Test
    void statusShowsTheBranchAndUntrackedFiles() throws Exception {
        Files.writeString(repo.resolve("a.txt"), "a\n");
        ToolResult r = run(Map.of("action", "status"));
        assertTrue(r.ok(), r::toString);
        assertTrue(text(r).contains("## No commits yet on main"), text(r));
        assertTrue(text(r).contains("?? a.txt"), text(r));
        assertEquals("status", r.details().get("action"));
    }

    @Test
    void commitRecordsOnlyWhatIsStaged() throws Exception {
        Files.writeString(repo.resolve("a.txt"), "a\n");
        Files.writeString(repo.resolve("b.txt"), "b\n");
        git("add", "a.txt");
        ToolResult r = run(Map.of("action", "commit", "message", "Add a"));
        assertTrue(r.ok(), r::toString);
        assertTrue(text(r).contains("Add a"), text(r));
        assertEquals("a.txt", git("ls-tree", "--name-only", "HEAD").strip());
        assertTrue(text(run(Map.of("action", "status"))).contains("?? b.txt"));
    }

    @Test
    void logListsTheLastCommitsNewestFirstUpToCount() throws Exception {
        for (int i = 1; i <= 3; i++) {
            Files.writeString(repo.resolve("f.txt"), "v" + i + "\n");
            git("add", "f.txt");
            git("commit", "-q", "-m", "change " + i);
        }
        ToolResult r = run(Map.of("action", "log", "count", 2));
        assertTrue(r.ok(), r::toString);
        String[] lines = text(r).split("\n");
        assertEquals(2, lines.length, text(r));
        assertTrue(lines[0].endsWith("Test Author: change 3"), lines[0]);
        assertTrue(lines[1].endsWith("Test Author: change 2"), lines[1]);
    }

    @Test
    void diffShowsUnstagedOrStagedChangesAndCanBeLimitedToAPath() throws Exception {
        Files.writeString(repo.resolve("a.txt"), "one\n");
        Files.writeString(repo.resolve("b.txt"), "one\n");
        git("add", ".");
        git("commit", "-q", "-m", "base");
        Files.writeString(repo.resolve("a.txt"), "two\n");
        Files.writeString(repo.resolve("b.txt"), "two\n");
        git("add", "b.txt");

        String unstaged = text(run(Map.of("action", "diff")));
        assertTrue(unstaged.contains("+two") && unstaged.contains("a/a.txt"), unstaged);
        assertFalse(unstaged.contains("b.txt"), unstaged);
        String staged = text(run(Map.of("action", "diff", "staged", true)));
        assertTrue(staged.contains("a/b.txt") && !staged.contains("a.txt"), staged);
        assertEquals("no unstaged changes", text(run(Map.of("action", "diff", "path", "b.txt"))));
    }

    @Test
    void outputBeyondTheBoundIsCutAndMarked() throws Exception {
        Files.writeString(repo.resolve("big.txt"), "x\n");
        git("add", ".");
        git("commit", "-q", "-m", "base");
        Files.writeString(repo.resolve("big.txt"), "line of text\n".repeat(20_000));
        ToolResult r = run(Map.of("action", "diff"));
        assertTrue(r.ok(), r::toString);
        assertTrue(r.truncated());
        assertTrue(text(r).endsWith("narrow it with path or count]"), text(r).substring(text(r).length() - 100));
        assertTrue(text(r).length() < GitRunner.MAX_STDOUT + 200);
    }

    @Test
    void commitWithoutAMessageIsInvalidAndCommitsNothing() throws Exception {
        Files.writeString(repo.resolve("a.txt"), "a\n");
        git("add", "a.txt");
        ToolResult r = run(Map.of("action", "commit", "message", "  "));
        assertEquals(ErrorCode.INVALID_ARGUMENT, r.errorCode());
        assertEquals("commit needs a non-empty message", text(r));
        assertTrue(gitStatus("rev-parse", "--verify", "-q", "HEAD") != 0, "no commit was made");
    }

    @Test
    void pathsOutsideTheWorkspaceAreRefused() throws Exception {
        for (String path : List.of("../elsewhere", "/etc/passwd", "a/../../x", "")) {
            ToolResult r = run(Map.of("action", "diff", "path", path));
            assertEquals(ErrorCode.INVALID_ARGUMENT, r.errorCode(), path);
            assertTrue(text(r).startsWith("path must be relative to the workspace"), text(r));
        }
    }

    @Test
    void anUnknownActionIsInvalid() throws Exception {
        ToolResult r = run(Map.of("action", "push"));
        assertEquals(ErrorCode.INVALID_ARGUMENT, r.errorCode());
        assertEquals("action must be status, log, diff or commit, not push", text(r));
    }

    @Test
    void aRepositoryAboveTheWorkspaceIsNotUsed() throws Exception {
        Path sub = Files.createDirectories(repo.resolve("sub"));
        ToolResult r = tool.execute(new FakeToolCall(sub, Map.of("action", "status")));
        assertEquals(ErrorCode.TOOL_FAILED, r.errorCode());
        assertTrue(text(r).contains("not a git repository"), text(r));
    }

    /** Pins: git, a child of the host, gets /dev/null and pipes of its own, no other descriptor of the host (issue 12.1). */
    @Test
    void gitHasOnlyDevNullAndItsOwnPipes() throws Exception {
        Path listing = bin.resolve("listing");
        Files.writeString(listing, "for i in {0..1023}; do [[ -e /proc/$$/fd/$i ]] && echo \"$i $(readlink /proc/$$/fd/$i)\";"
                + " done; true");
        Path git = bin.resolve("listing-git"); // bash -c: a shell running a script file keeps it open itself
        Files.writeString(git, "#!/bin/sh\nexec /bin/bash -c \"$(cat '" + listing + "')\"\n");
        Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwxr-xr-x"));
        GitRunner.Outcome o = new GitRunner(git.toString()).run(new FakeToolCall(repo, Map.of()), List.of(),
                GitEnvironment.FIXED);
        String[] fds = o.stdout().strip().split("\n");
        assertEquals(3, fds.length, o.stdout());
        assertEquals("0 /dev/null", fds[0]);
        assertTrue(fds[1].startsWith("1 pipe:[") && fds[2].startsWith("2 pipe:["), o.stdout());
        assertFalse(fds[1].substring(2).equals(fds[2].substring(2)), o.stdout());
    }

    @Test
    void aMissingGitIsAToolFailure() throws Exception {
        ToolResult r = new GitTool(new GitRunner(repo.resolve("no-such-git").toString()))
                .execute(new FakeToolCall(repo, Map.of("action", "status")));
        assertEquals(ErrorCode.TOOL_FAILED, r.errorCode());
        assertTrue(text(r).startsWith("could not run git (is it installed and on PATH?)"), text(r));
    }

    @Test
    void aCallCancelledBeforeItStartsRunsNoGit() throws Exception {
        Files.writeString(repo.resolve("a.txt"), "a\n");
        git("add", "a.txt");
        FakeToolCall call = new FakeToolCall(repo, Map.of("action", "commit", "message", "m"));
        call.cancel();
        assertEquals(ErrorCode.TOOL_ABORTED, tool.execute(call).errorCode());
        assertTrue(gitStatus("rev-parse", "--verify", "-q", "HEAD") != 0, "no commit was made");
    }

    @Test
    void cancellingAHangingCommitKillsGitAndItsChildren() throws Exception {
        Path started = repo.resolve("commit-started");
        GitTool slow = slowCommit(started);
        FakeToolCall call = new FakeToolCall(repo, Map.of("action", "commit", "message", "m"));
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> execute(slow, call));
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(started));
        call.cancel();
        ToolResult r = result.get(15, TimeUnit.SECONDS);
        assertEquals(ErrorCode.TOOL_ABORTED, r.errorCode(), r::toString);
        assertTrue(gitStatus("rev-parse", "--verify", "-q", "HEAD") != 0, "the commit did not happen");
    }

    @Test
    void aCommitPastTheDeadlineIsATimeout() throws Exception {
        GitTool slow = slowCommit(repo.resolve("commit-started"));
        long start = System.nanoTime();
        ToolResult r = slow.execute(new FakeToolCall(repo, Map.of("action", "commit", "message", "m"),
                Duration.ofMillis(2500)));
        assertEquals(ErrorCode.TOOL_TIMEOUT, r.errorCode(), r::toString);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(15), "returned soon after the deadline");
    }

    /**
     * The tool with a git that hangs in {@code commit} (after saying so), a child of it sleeping: hooks,
     * the usual way to make a commit slow, do not run under this plugin.
     */
    private GitTool slowCommit(Path started) throws IOException, InterruptedException {
        Files.writeString(repo.resolve("a.txt"), "a\n");
        git("add", "a.txt");
        Path wrapper = bin.resolve("slow-git");
        Files.writeString(wrapper, "#!/bin/sh\ncase \" $* \" in *\" commit \"*) touch '" + started + "'; sleep 60;; esac\n"
                + "exec git \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        return new GitTool(new GitRunner(wrapper.toString()));
    }

    private static ToolResult execute(GitTool tool, FakeToolCall call) {
        try {
            return tool.execute(call);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private ToolResult run(Map<String, Object> args) throws InterruptedException {
        return tool.execute(new FakeToolCall(repo, args));
    }

    private static String text(ToolResult r) {
        return String.join("\n", r.text());
    }

    private String git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), () -> String.join(" ", args) + ": " + out);
        return out;
    }

    private int gitStatus(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor();
    }
}
