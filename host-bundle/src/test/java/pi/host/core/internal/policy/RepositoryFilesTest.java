package pi.host.core.internal.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pins issue 13.3 at the rule: every spelling of a repository control file is one, and nothing else is. */
class RepositoryFilesTest {

    @ParameterizedTest
    @ValueSource(strings = {".git/config", ".git/hooks/pre-commit", ".git", "sub/module/.git/config", ".GIT/config",
        ".Git/HOOKS/post-checkout", ".git./config", ".git /config", ".g\u200Cit/config", "\uFEFF.git/config",
        "GIT~1/config", "vendor/lib/.git", ".gitattributes", "src/.gitattributes", ".gitmodules", ".GitModules",
        ".pi/agents/evil.md", ".pi/skills/x/SKILL.md", ".pi/settings.json", ".pi", ".PI/agents/x.md",
        ".pi./agents/x.md", ".pi/plan", ".pi/plans/x.md", ".pi/goal"})
    void theseAreControlFiles(String relative) {
        assertThat(RepositoryFiles.isControlFile(relative, true)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"README.md", ".gitignore", "src/.gitignore", ".mailmap", "git/config", ".github/workflows/ci.yml",
        ".gitattributes.bak", "docs/gitattributes", ".pi/plan/2026-plan.md", ".pi/goal/g.md", ".PI/Plan/p.md",
        "sub/.pi/agents/x.md", "my.git/config", ".gitx/config", "a.pi/agents"})
    void theseAreNot(String relative) {
        assertThat(RepositoryFiles.isControlFile(relative, true)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {".pi/agents/x.md", ".pi"})
    void piConfigurationCountsOnlyAtTheWorkspaceRoot(String relative) {
        assertThat(RepositoryFiles.isControlFile(relative, false)).isFalse();
        assertThat(RepositoryFiles.isControlFile(".git/config", false)).as(".git counts in scratch too").isTrue();
    }
}
