package pi.host.core.internal.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins "one runner for every git command the host starts" (spec §4e): no main source of the host's
 * modules names git as a program, or uses jgit's porcelain (which runs repository hooks through a
 * shell), except {@link HardenedGit}. The git-info sample is an outside author's plugin with its own
 * hardened runner and its own tests; it is not the host.
 */
class OneGitRunnerTest {

    /** git as a program: the literal "git" (or a path to it) as an argument, or a command word in a script. */
    private static final Pattern JAVA_SPAWN = Pattern.compile("\"([^\"]*/)?git\"\\s*[,)]");
    private static final Pattern JGIT_PORCELAIN = Pattern.compile("org\\.eclipse\\.jgit\\.(api|hooks)\\b");
    private static final Pattern SCRIPT_SPAWN = Pattern.compile("(^|[;&|(`$\\s])git\\s+[a-z]");

    @Test
    void noHostSourceStartsGitButTheHardenedRunner() throws IOException {
        Path root = Path.of("..").toRealPath();
        assertThat(root.resolve("host-bundle/src/main/java/pi/host/core/internal/git/HardenedGit.java")).exists();
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String rel = root.relativize(f).toString().replace('\\', '/');
                if (!rel.contains("/src/main/") && !rel.startsWith("bin/")
                        || rel.startsWith("sample-plugins/") || rel.contains("/target/")
                        || rel.contains("node_modules/") || rel.endsWith("internal/git/HardenedGit.java")) {
                    continue;
                }
                if (rel.endsWith(".java")) {
                    String text = Files.readString(f);
                    if (JAVA_SPAWN.matcher(text).find() || JGIT_PORCELAIN.matcher(text).find()) {
                        offenders.add(rel);
                    }
                } else if (rel.endsWith(".sh") || rel.startsWith("bin/")) {
                    for (String line : Files.readAllLines(f)) {
                        if (!line.strip().startsWith("#") && SCRIPT_SPAWN.matcher(line).find()) {
                            offenders.add(rel + ": " + line.strip());
                        }
                    }
                }
            }
        }
        assertThat(offenders).as("git started outside HardenedGit").isEmpty();
    }

    /** The guard can fail: the patterns find a spawn of the kind they are meant to. */
    @Test
    void theGuardsPatternsFindASpawn() {
        assertThat(JAVA_SPAWN.matcher("new ProcessBuilder(\"git\", \"status\")").find()).isTrue();
        assertThat(JGIT_PORCELAIN.matcher("import org.eclipse.jgit.api.Git;").find()).isTrue();
        assertThat(SCRIPT_SPAWN.matcher("cd \"$dir\" && git status --porcelain").find()).isTrue();
        assertThat(JAVA_SPAWN.matcher("List.of(\"/usr/bin/git\")").find()).isTrue();
        assertThat(JAVA_SPAWN.matcher("Path.of(dir, \".git\")").find()).isFalse();
        assertThat(JAVA_SPAWN.matcher("\"git did not say\"").find()).isFalse();
    }
}
