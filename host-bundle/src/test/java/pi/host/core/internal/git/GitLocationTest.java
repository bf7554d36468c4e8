package pi.host.core.internal.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins spec §4e's location rule: a project's {@code .git} that points at another repository, and a
 * {@code core.worktree} that names another work tree, are not followed (plain git follows both); a
 * linked worktree its repository registered, and a project folder below the repository's root, are used.
 */
class GitLocationTest {

    @TempDir
    Path tmp;

    /** Pins: a .git file whose gitdir: names another repository is refused; plain git follows it. */
    @Test
    void aDotGitFilePointingElsewhereIsNotFollowed() throws Exception {
        GitFixture fx = new GitFixture(tmp);
        Path other = fx.repo("other");
        Path project = Files.createDirectories(tmp.resolve("project"));
        Files.writeString(project.resolve(".git"), "gitdir: " + other.resolve(".git") + "\n");
        assertThat(fx.plainWith(project, Map.of(), "rev-parse", "--absolute-git-dir").out().strip())
                .isEqualTo(other.resolve(".git").toRealPath().toString());
        HardenedGit git = GitFixture.hardened(Map.of());
        assertThatThrownBy(() -> GitLocation.project(git, project.toRealPath())).isInstanceOf(GitException.class)
                .hasMessageContaining("does not follow a .git that points elsewhere");
    }

    /** Pins: core.worktree naming a folder above the project (a merge would write there) is refused. */
    @Test
    void aCoreWorktreeElsewhereIsRefused() throws Exception {
        GitFixture fx = new GitFixture(tmp);
        Path r = fx.repo("home/project");
        fx.plain(r, "config", "core.worktree", tmp.resolve("home").toString());
        assertThat(fx.plainWith(r, Map.of(), "rev-parse", "--show-toplevel").out().strip())
                .isEqualTo(tmp.resolve("home").toRealPath().toString());
        HardenedGit git = GitFixture.hardened(Map.of());
        assertThatThrownBy(() -> GitLocation.project(git, r.toRealPath())).isInstanceOf(GitException.class);
    }

    @Test
    void aRegisteredLinkedWorktreeAndASubfolderAreUsed() throws Exception {
        GitFixture fx = new GitFixture(tmp);
        Path r = fx.repo("main");
        Files.createDirectories(r.resolve("sub/deeper"));
        fx.plain(r, "worktree", "add", "-q", "-b", "linked", tmp.resolve("linked").toString());
        HardenedGit git = GitFixture.hardened(Map.of());
        GitLocation.Repository sub = GitLocation.project(git, r.resolve("sub/deeper").toRealPath());
        assertThat(sub.toplevel()).isEqualTo(r.toRealPath());
        GitLocation.Repository linked = GitLocation.project(git, tmp.resolve("linked").toRealPath());
        assertThat(linked.commonDir()).isEqualTo(r.resolve(".git").toRealPath());
        assertThat(linked.gitDir()).isEqualTo(r.resolve(".git/worktrees/linked").toRealPath());
        GitLocation.worktree(git, tmp.resolve("linked").toRealPath(), linked.gitDir(), linked.commonDir());
    }

    /** Pins: a host worktree whose .git now names another registration is not the host's any more. */
    @Test
    void aWorktreeWhoseDotGitWasRewrittenIsRefused() throws Exception {
        GitFixture fx = new GitFixture(tmp);
        Path r = fx.repo("main");
        Path other = fx.repo("other");
        fx.plain(r, "worktree", "add", "-q", "-b", "wt", tmp.resolve("wt").toString());
        HardenedGit git = GitFixture.hardened(Map.of());
        Path wt = tmp.resolve("wt").toRealPath();
        Path admin = r.resolve(".git/worktrees/wt").toRealPath();
        GitLocation.worktree(git, wt, admin, r.resolve(".git").toRealPath());
        Files.writeString(wt.resolve(".git"), "gitdir: " + other.resolve(".git") + "\n");
        assertThatThrownBy(() -> GitLocation.worktree(git, wt, admin, r.resolve(".git").toRealPath()))
                .isInstanceOf(GitException.class).hasMessageContaining("no longer is the one the host registered");
    }
}
