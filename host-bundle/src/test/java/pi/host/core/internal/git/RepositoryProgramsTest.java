package pi.host.core.internal.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins spec §4e's git hardening, one vector a test: a repository configured to run a program (a
 * marker file shows it ran) does run it under plain git, and does not under the host's
 * {@link HardenedGit}, for the commands the host runs (worktree add, status, add, commit, merge, diff,
 * log), while the command itself still works.
 */
class RepositoryProgramsTest {

    @TempDir
    Path tmp;
    GitFixture fx;
    HardenedGit git;

    @BeforeEach
    void setUp() throws Exception {
        fx = new GitFixture(tmp);
        git = GitFixture.hardened(Map.of());
    }

    private GitResult hardened(Path repo, String... args) throws Exception {
        return git.run(repo, git.settingsFor(repo, null), args);
    }

    /** Pins: hooks of the repository (its .git/hooks and a core.hooksPath it sets) never run. */
    @Test
    void repositoryHooksNeverRun() throws Exception {
        Path r = fx.repo("r");
        for (String hook : List.of("post-checkout", "pre-commit", "commit-msg", "post-commit", "reference-transaction",
                "post-merge", "pre-merge-commit", "post-index-change", "prepare-commit-msg")) {
            fx.markerScript(r.resolve(".git/hooks/" + hook), "hook-" + hook);
            fx.markerScript(r.resolve("myhooks/" + hook), "path-" + hook);
        }
        fx.plain(r, "checkout", "-q", "-b", "side");
        Files.writeString(r.resolve("b.txt"), "b\n");
        fx.plain(r, "add", "b.txt");
        fx.plain(r, "commit", "-q", "-m", "side");
        fx.plain(r, "checkout", "-q", "main");
        assertThat(fx.marks()).as("plain git runs the .git/hooks").contains("hook-post-checkout",
                "hook-pre-commit", "hook-post-commit", "hook-reference-transaction");
        fx.plain(r, "config", "core.hooksPath", "myhooks");
        fx.clearMarks();
        fx.plain(r, "merge", "-q", "--no-ff", "--no-edit", "side");
        assertThat(fx.marks()).as("plain git runs the core.hooksPath hooks").contains("path-post-merge");
        fx.plain(r, "reset", "-q", "--hard", "HEAD~1");
        fx.clearMarks();

        assertThat(hardened(r, "worktree", "add", "-q", "-b", "wt", tmp.resolve("wt").toString()).ok()).isTrue();
        Files.writeString(r.resolve("c.txt"), "c\n");
        assertThat(hardened(r, "add", "-A").ok()).isTrue();
        GitResult commit = hardened(r, "commit", "-q", "-m", "host");
        assertThat(commit.ok()).as(commit.stderr()).isTrue();
        GitResult merge = hardened(r, "merge", "-q", "--no-ff", "--no-edit", "side");
        assertThat(merge.ok()).as(merge.stderr()).isTrue();
        assertThat(hardened(r, "status", "--porcelain").ok()).isTrue();
        assertThat(fx.marks()).isEmpty();
    }

    /** Pins: core.fsmonitor (a program or a hook) never runs. */
    @Test
    void fsmonitorNeverRuns() throws Exception {
        Path r = fx.repo("r");
        fx.plain(r, "config", "core.fsmonitor", fx.markerScript(tmp.resolve("fsmon.sh"), "fsmonitor").toString());
        Files.writeString(r.resolve("a.txt"), "two\n");
        fx.plainWith(r, Map.of(), "status", "--porcelain");
        assertThat(fx.marks()).containsExactly("fsmonitor");
        fx.clearMarks();
        GitResult status = hardened(r, "status", "--porcelain");
        assertThat(status.ok()).isTrue();
        assertThat(status.stdout()).contains("a.txt");
        assertThat(fx.marks()).isEmpty();
    }

    /** Pins: the repository's clean, smudge and process filters never run (add, checkout of a worktree). */
    @Test
    void filterDriversOfTheRepositoryNeverRun() throws Exception {
        Path r = fx.repo("r");
        Files.writeString(r.resolve(".gitattributes"), "*.txt filter=evil\n*.dat filter=proc\n");
        fx.plain(r, "config", "filter.evil.clean", fx.marker("clean"));
        fx.plain(r, "config", "filter.evil.smudge", fx.marker("smudge"));
        fx.plain(r, "config", "filter.proc.process", fx.marker("process"));
        fx.plain(r, "config", "filter.proc.required", "true");
        Files.writeString(r.resolve("a.txt"), "changed\n");
        fx.plain(r, "add", "-A");
        fx.plain(r, "commit", "-q", "-m", "attributes");
        fx.plainWith(r, Map.of(), "worktree", "add", "-q", tmp.resolve("plainwt").toString());
        Files.writeString(r.resolve("x.dat"), "data\n");
        fx.plainWith(r, Map.of(), "add", "x.dat");
        assertThat(fx.marks()).as("plain git runs the filters").contains("clean", "smudge", "process");
        fx.plain(r, "reset", "-q");
        fx.clearMarks();

        GitResult add = hardened(r, "worktree", "add", "-q", "-b", "wt", tmp.resolve("wt").toString());
        assertThat(add.ok()).as(add.stderr()).isTrue();
        assertThat(Files.readString(tmp.resolve("wt/a.txt"))).isEqualTo("changed\n");
        Files.writeString(r.resolve("a.txt"), "changed again\n");
        GitResult added = hardened(r, "add", "-A");
        assertThat(added.ok()).as(added.stderr()).isTrue();
        assertThat(fx.marks()).isEmpty();
    }

    /** Pins the scope rule: a filter driver of the user's own config (git-lfs) is the user's setup and stays. */
    @Test
    void aFilterDriverDefinedOnlyInTheUsersConfigStays() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(home.resolve(".gitconfig"), "[filter \"users\"]\n\tclean = " + fx.marker("users-clean")
                + "\n\trequired = false\n");
        HardenedGit withHome = GitFixture.hardened(Map.of("HOME", home.toString(), "XDG_CONFIG_HOME",
                home.resolve(".config").toString()));
        Path r = fx.repo("r");
        Files.writeString(r.resolve(".gitattributes"), "*.txt filter=users\n");
        Files.writeString(r.resolve("a.txt"), "changed\n");
        assertThat(withHome.run(r, withHome.settingsFor(r, null), "add", "-A").ok()).isTrue();
        assertThat(fx.marks()).containsExactly("users-clean");
    }

    /** Pins: a merge driver (defined anywhere) never runs; the merge is git's own file merge. */
    @Test
    void mergeDriversBecomeGitsOwnFileMerge() throws Exception {
        Path r = fx.repo("r");
        Files.writeString(r.resolve("a.txt"), "one\ntwo\nthree\nfour\nfive\n");
        Files.writeString(r.resolve(".gitattributes"), "*.txt merge=evil\n");
        fx.plain(r, "add", "-A");
        fx.plain(r, "commit", "-q", "-m", "base");
        fx.plain(r, "config", "merge.evil.driver", fx.marker("merge-driver") + " %A");
        fx.plain(r, "checkout", "-q", "-b", "side");
        Files.writeString(r.resolve("a.txt"), "ONE\ntwo\nthree\nfour\nfive\n");
        fx.plain(r, "commit", "-q", "-am", "side");
        fx.plain(r, "checkout", "-q", "main");
        Files.writeString(r.resolve("a.txt"), "one\ntwo\nthree\nfour\nFIVE\n");
        fx.plain(r, "commit", "-q", "-am", "main");
        fx.plainWith(r, Map.of(), "merge", "--no-commit", "--no-ff", "side");
        assertThat(fx.marks()).containsExactly("merge-driver");
        fx.plain(r, "merge", "--abort");
        fx.clearMarks();

        GitResult merge = hardened(r, "merge", "--no-edit", "side");
        assertThat(merge.ok()).as(merge.stdout() + merge.stderr()).isTrue();
        assertThat(Files.readString(r.resolve("a.txt"))).isEqualTo("ONE\ntwo\nthree\nfour\nFIVE\n");
        assertThat(fx.marks()).isEmpty();
    }

    /** Pins: textconv and external diff programs (diff.external, diff.&lt;d&gt;.command) never run. */
    @Test
    void textconvAndExternalDiffNeverRun() throws Exception {
        Path r = fx.repo("r");
        Files.writeString(r.resolve(".gitattributes"), "*.txt diff=conv\n*.md diff=cmd\n");
        fx.plain(r, "config", "diff.conv.textconv", fx.marker("textconv"));
        fx.plain(r, "config", "diff.cmd.command", fx.marker("diff-command"));
        Files.writeString(r.resolve("a.txt"), "two\n");
        Files.writeString(r.resolve("b.md"), "# b\n");
        fx.plain(r, "add", "-A");
        fx.plain(r, "commit", "-q", "-m", "second");
        fx.plainWith(r, Map.of(), "diff", "HEAD~1", "HEAD");
        fx.plainWith(r, Map.of(), "log", "-p", "-1");
        assertThat(fx.marks()).contains("textconv", "diff-command");
        fx.plain(r, "config", "diff.external", fx.marker("external"));
        fx.clearMarks();
        fx.plainWith(r, Map.of(), "diff", "HEAD~1", "HEAD");
        assertThat(fx.marks()).contains("external");
        fx.clearMarks();

        GitResult diff = hardened(r, "diff", "HEAD~1", "HEAD");
        assertThat(diff.ok()).isTrue();
        assertThat(diff.stdout()).contains("+two");
        assertThat(hardened(r, "log", "-p", "-1").stdout()).contains("+two");
        assertThat(hardened(r, "show", "HEAD").ok()).isTrue();
        assertThat(fx.marks()).isEmpty();
    }

    /** Pins: commit signing and signature checks run no gpg.program (nor ssh's). */
    @Test
    void signingProgramsNeverRun() throws Exception {
        Path r = fx.repo("r");
        fx.plain(r, "config", "commit.gpgSign", "true");
        fx.plain(r, "config", "gpg.program", fx.markerScript(tmp.resolve("gpg.sh"), "gpg").toString());
        fx.plain(r, "config", "log.showSignature", "true");
        Files.writeString(r.resolve("a.txt"), "two\n");
        fx.plainWith(r, Map.of(), "commit", "-q", "-am", "signed?");
        assertThat(fx.marks()).containsExactly("gpg");
        fx.clearMarks();
        GitResult commit = hardened(r, "commit", "-q", "-am", "unsigned");
        assertThat(commit.ok()).as(commit.stderr()).isTrue();
        assertThat(hardened(r, "log", "-1").ok()).isTrue();
        assertThat(fx.marks()).isEmpty();
    }

    /**
     * Pins: a partial clone's lazy fetch of a missing blob runs no transport (an {@code ext::} remote,
     * which the repository allowed for itself), so checking out a worktree of it fails instead.
     */
    @Test
    void aLazyFetchRunsNoTransport() throws Exception {
        Path src = fx.repo("src");
        fx.plain(src, "config", "uploadpack.allowFilter", "true");
        fx.plain(tmp, "clone", "-q", "--no-checkout", "--filter=blob:none", "file://" + src, "partial");
        Path r = tmp.resolve("partial");
        fx.plain(r, "config", "remote.origin.url", "ext::sh -c touch% " + tmp.resolve("markers/ext"));
        fx.plain(r, "config", "protocol.ext.allow", "always");
        fx.plainWith(r, Map.of(), "checkout", "-q", "main");
        assertThat(fx.marks()).containsExactly("ext");
        fx.clearMarks();
        GitResult add = hardened(r, "worktree", "add", "-q", "-b", "wt", tmp.resolve("wt").toString());
        assertThat(add.ok()).isFalse();
        assertThat(fx.marks()).isEmpty();
    }

    /** Pins: commands that show diffs always get --no-ext-diff --no-textconv, and every command --no-pager. */
    @Test
    void diffsAreAskedForWithoutHelpersAndNothingPages() {
        assertThat(git.command(List.of("diff", "A", "B"))).containsSubsequence("--no-pager", "diff", "--no-ext-diff",
                "--no-textconv", "A", "B");
        assertThat(git.command(List.of("log", "-p"))).containsSubsequence("log", "--no-ext-diff", "--no-textconv");
        assertThat(git.command(List.of("merge", "x"))).containsExactly(git.executable(), "--no-pager", "merge", "x");
    }
}
