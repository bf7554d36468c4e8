package pi.host.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test's own git repository, driven with plain git (the test's side: making the project the host
 * works on, and looking at what the host did to it). The host's own git runs elsewhere, hardened.
 */
final class GitRepo {

    private final Path dir;

    private GitRepo(Path dir) {
        this.dir = dir;
    }

    /** {@code git init} in {@code dir} with one commit of the files already there. */
    static GitRepo init(Path dir) throws IOException, InterruptedException {
        GitRepo repo = new GitRepo(dir);
        repo.git("init", "-q", "-b", "main");
        repo.git("config", "user.name", "test");
        repo.git("config", "user.email", "test@localhost");
        repo.commitAll("initial");
        return repo;
    }

    /** An existing repository or worktree. */
    static GitRepo at(Path dir) {
        return new GitRepo(dir);
    }

    Path dir() {
        return dir;
    }

    void commitAll(String message) throws IOException, InterruptedException {
        git("add", "-A");
        git("commit", "-q", "--allow-empty", "-m", message);
    }

    /** Runs git in the repository; its stdout; a non-zero exit fails the test. */
    String git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("git " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }

    String head() throws IOException, InterruptedException {
        return git("rev-parse", "HEAD").strip();
    }

    /** The local branches, one name each. */
    List<String> branches() throws IOException, InterruptedException {
        return git("branch", "--format=%(refname:short)").lines().toList();
    }

    void write(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
    }
}
