package org.example.gitinfo;

import static org.example.gitinfo.TestRepo.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

/**
 * Pins issue 12.5: the plan-safe status, log and diff (and commit) ran programs the repository
 * configured. One test per way a repository names a program: each shows the plugin runs nothing
 * (first, so the repository is as it was arranged), then that plain git, on the same repository,
 * does run it.
 */
class RepositoryProgramsTest {

    @TempDir
    Path tmp;

    private TestRepo repo;

    @BeforeEach
    void init() throws Exception {
        repo = new TestRepo(tmp.resolve("workspace"), tmp);
    }

    private ToolResult ok(Map<String, Object> args) throws InterruptedException {
        ToolResult r = repo.tool(args);
        assertTrue(r.ok(), r::toString);
        return r;
    }

    private void assertNothingRan() throws Exception {
        assertEquals(List.of(), repo.ranSoFar(), "programs the plugin's git ran");
    }

    /** status and diff through the plugin run nothing; then plain git status, on the same repository, runs each. */
    private void readingRunsNothingButPlainStatusRuns(String... programs) throws Exception {
        ok(Map.of("action", "status"));
        ok(Map.of("action", "diff"));
        assertNothingRan();
        repo.plain(List.of("status"), Map.of());
        assertTrue(repo.ranSoFar().containsAll(List.of(programs)), repo.ranSoFar()::toString);
    }

    @Test
    void hooksDoNotRunOnStatus() throws Exception {
        repo.hook(repo.root.resolve(".git/hooks"), "post-index-change", "post-index-change");
        repo.touch("a.txt");
        ok(Map.of("action", "status"));
        assertNothingRan();
        repo.git("status");
        assertTrue(repo.ran("post-index-change"));
    }

    @Test
    void hooksDoNotRunOnCommitWhereverTheRepositoryPutsThem() throws Exception {
        List<String> hooks = List.of("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit",
                "reference-transaction", "post-index-change");
        for (String hook : hooks) {
            repo.hook(repo.root.resolve(".githooks"), hook, hook);
        }
        repo.git("config", "core.hooksPath", ".githooks");
        Files.writeString(repo.root.resolve("b.txt"), "b\n");
        repo.git("add", "b.txt");
        clearMarkers(); // plain git add ran post-index-change
        assertTrue(text(ok(Map.of("action", "commit", "message", "Add b"))).contains("Add b"));
        assertNothingRan();
        assertEquals("Add b\n", repo.git("log", "-1", "--format=%s"));
        Files.writeString(repo.root.resolve("c.txt"), "c\n");
        repo.git("add", "c.txt");
        repo.git("commit", "-q", "-m", "Add c");
        assertTrue(repo.ranSoFar().containsAll(hooks), repo.ranSoFar()::toString);
    }

    @Test
    void fsmonitorDoesNotRun() throws Exception {
        repo.git("config", "core.fsmonitor", repo.program("fsmonitor"));
        repo.touch("a.txt");
        readingRunsNothingButPlainStatusRuns("fsmonitor");
    }

    @Test
    void cleanFiltersDoNotRun() throws Exception {
        repo.commit(".gitattributes", "*.txt filter=lint\n", "attributes");
        repo.git("config", "filter.lint.clean", repo.program("clean"));
        repo.touch("a.txt");
        readingRunsNothingButPlainStatusRuns("clean");
    }

    @Test
    void processFiltersDoNotRunEvenWhenRequired() throws Exception {
        // a driver name with a dot and capitals: it is a subsection, kept as it is
        repo.commit(".gitattributes", "*.txt filter=Lfs.Like\n", "attributes");
        repo.git("config", "filter.Lfs.Like.process", repo.program("process"));
        repo.git("config", "filter.Lfs.Like.required", "true");
        repo.touch("a.txt");
        readingRunsNothingButPlainStatusRuns("process"); // plain git then fails: the filter answered nonsense
    }

    /** The tool never checks out, but its git would run no smudge filter if it did. */
    @Test
    void smudgeFiltersAreSwitchedOffToo() throws Exception {
        repo.commit(".gitattributes", "*.txt filter=lint\n", "attributes");
        repo.git("config", "filter.lint.smudge", repo.program("smudge"));
        Files.delete(repo.root.resolve("a.txt"));
        GitRunner.Outcome o = new HardenedGit(new GitRunner("git")).run(new FakeToolCall(repo.root, Map.of()),
                List.of("checkout", "--", "a.txt"));
        assertEquals(0, o.exitCode(), o::stderr);
        assertNothingRan();
        Files.delete(repo.root.resolve("a.txt"));
        repo.git("checkout", "--", "a.txt");
        assertTrue(repo.ran("smudge"));
    }

    @Test
    void textconvDoesNotRun() throws Exception {
        repo.commit(".gitattributes", "*.txt diff=pretty\n", "attributes");
        repo.git("config", "diff.pretty.textconv", repo.program("textconv"));
        Files.writeString(repo.root.resolve("a.txt"), "changed\n");
        assertTrue(text(ok(Map.of("action", "diff"))).contains("+changed"));
        ok(Map.of("action", "log", "path", "a.txt"));
        assertNothingRan();
        repo.git("diff");
        assertTrue(repo.ran("textconv"));
    }

    @Test
    void externalDiffProgramsDoNotRun() throws Exception {
        repo.commit(".gitattributes", "*.txt diff=tool\n", "attributes");
        repo.git("config", "diff.tool.command", repo.program("driver-command"));
        repo.git("config", "diff.external", repo.program("diff-external"));
        Files.writeString(repo.root.resolve("a.txt"), "changed\n");
        assertTrue(text(ok(Map.of("action", "diff"))).contains("+changed"));
        assertNothingRan();
        repo.git("diff");
        assertTrue(repo.ran("driver-command"));
        repo.git("config", "--unset", "diff.tool.command");
        repo.git("diff");
        assertTrue(repo.ran("diff-external"));
    }

    /** On a terminal too: the tool's whole git run is put on one with {@code script}, where plain git pages. */
    @Test
    void pagersDoNotRunEvenOnATerminal() throws Exception {
        repo.git("config", "core.pager", repo.program("core-pager"));
        repo.git("config", "pager.status", repo.program("pager-status"));
        Path onATerminal = tmp.resolve("git-on-a-terminal");
        // the terminal's line ends (\r\n) are taken out again for the plugin, which reads git's answers
        Files.writeString(onATerminal, "#!/bin/bash\nset -o pipefail\n"
                + "script -qec \"$(printf '%q ' git \"$@\")\" /dev/null | tr -d '\\r'\n");
        Files.setPosixFilePermissions(onATerminal, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String action : List.of("status", "log", "diff")) {
            ToolResult r = repo.tool(new GitRunner(onATerminal.toString()), Map.of("action", action));
            assertTrue(r.ok(), r::toString);
        }
        assertNothingRan();
        repo.plainOnATerminal("log -1");
        assertTrue(repo.ran("core-pager"));
        repo.plainOnATerminal("status");
        assertTrue(repo.ran("pager-status"));
    }

    @Test
    void signaturesAreNotChecked() throws Exception {
        signedCommit();
        repo.git("config", "gpg.program", repo.program("gpg"));
        repo.git("config", "log.showSignature", "true");
        assertTrue(text(ok(Map.of("action", "log"))).contains("signed"));
        assertNothingRan();
        repo.plain(List.of("log", "-1"), Map.of());
        assertTrue(repo.ran("gpg"));
    }

    @Test
    void commitsAreNotSigned() throws Exception {
        repo.git("config", "gpg.program", repo.program("gpg"));
        repo.git("config", "commit.gpgSign", "true");
        Files.writeString(repo.root.resolve("b.txt"), "b\n");
        repo.git("add", "b.txt");
        ok(Map.of("action", "commit", "message", "Add b"));
        assertNothingRan();
        assertFalse(repo.git("cat-file", "commit", "HEAD").contains("gpgsig"));
        Files.writeString(repo.root.resolve("c.txt"), "c\n");
        repo.git("add", "c.txt");
        repo.plain(List.of("commit", "-q", "-m", "Add c"), Map.of());
        assertTrue(repo.ran("gpg"));
    }

    /** What an include or a conditional include brings is switched off like the repository's own settings. */
    @Test
    void includedConfigurationRunsNothingEither() throws Exception {
        Path included = tmp.resolve("included.cfg"); // outside the workspace: includes may point anywhere
        Files.writeString(included, "[core]\n\tfsmonitor = " + repo.program("included-fsmonitor") + "\n"
                + "[filter \"inc\"]\n\tclean = " + repo.program("included-clean") + "\n");
        Files.writeString(repo.root.resolve(".git/branch.cfg"), "[filter \"branch\"]\n\tclean = "
                + repo.program("onbranch-clean") + "\n");
        repo.commit(".gitattributes", "a.txt filter=inc\nb.txt filter=branch\n", "attributes");
        repo.commit("b.txt", "b\n", "b");
        repo.git("config", "include.path", included.toString());
        repo.git("config", "includeIf.onbranch:main.path", "branch.cfg");
        repo.touch("a.txt");
        repo.touch("b.txt");
        readingRunsNothingButPlainStatusRuns("included-fsmonitor", "included-clean", "onbranch-clean");
    }

    /** A submodule has a config of its own; the plugin's git never runs in it, whatever .gitmodules says. */
    @Test
    void submodulesAreNotEntered() throws Exception {
        TestRepo sub = new TestRepo(tmp.resolve("sub-source"), tmp.resolve("sub-markers"));
        repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.root.toString(), "sub");
        repo.git("config", "-f", ".gitmodules", "submodule.sub.ignore", "none");
        repo.git("add", ".gitmodules");
        repo.git("commit", "-q", "--no-verify", "-m", "sub");
        Path inner = repo.root.resolve("sub");
        Files.writeString(inner.resolve(".gitattributes"), "*.txt filter=own\n");
        repo.git("-C", "sub", "config", "filter.own.clean", repo.program("submodule-clean"));
        repo.git("-C", "sub", "config", "core.fsmonitor", repo.program("submodule-fsmonitor"));
        repo.touch("sub/a.txt");
        readingRunsNothingButPlainStatusRuns("submodule-clean", "submodule-fsmonitor");
    }

    /** A partial clone fetches a missing object on demand, through ssh or a remote helper the repository names. */
    @Test
    void objectsAreNotFetchedOnDemand() throws Exception {
        String blob = repo.git("rev-parse", "HEAD:a.txt").strip();
        repo.git("config", "core.repositoryformatversion", "1");
        repo.git("config", "extensions.partialClone", "origin");
        repo.git("config", "remote.origin.promisor", "true");
        repo.git("config", "remote.origin.url", "ext::sh -c " + repo.failing("fetch").replace(" ", "% "));
        repo.git("config", "protocol.ext.allow", "always"); // beats a command line's protocol.allow=never
        Files.delete(repo.root.resolve(".git/objects/" + blob.substring(0, 2) + "/" + blob.substring(2)));
        Files.writeString(repo.root.resolve("a.txt"), "changed\n");
        repo.tool(Map.of("action", "diff")); // fails: the object is missing, and nothing fetches it
        repo.tool(Map.of("action", "status"));
        assertNothingRan();
        repo.plain(List.of("diff"), Map.of());
        assertTrue(repo.ran("fetch"));
    }

    private void signedCommit() throws Exception {
        String tree = repo.git("rev-parse", "HEAD^{tree}").strip();
        String parent = repo.git("rev-parse", "HEAD").strip();
        Path object = tmp.resolve("signed-commit");
        Files.writeString(object, "tree " + tree + "\nparent " + parent + "\n"
                + "author Test Author <author@example.org> 1700000000 +0000\n"
                + "committer Test Author <author@example.org> 1700000000 +0000\n"
                + "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n");
        String commit = repo.git("hash-object", "-t", "commit", "-w", object.toString()).strip();
        repo.git("update-ref", "refs/heads/main", commit);
    }

    private void clearMarkers() throws Exception {
        for (String m : repo.ranSoFar()) {
            Files.delete(tmp.resolve("markers").resolve(m));
        }
    }

}
