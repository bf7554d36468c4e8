package pi.host.core.internal.git;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Repositories for the git tests, made with plain git, and plain git itself (what the user's git does
 * with the same repository), next to a marker script that a repository's configuration names: a
 * marker file appears when a program the repository configured ran.
 */
public final class GitFixture {

    private final Path base;
    private final Path markers;
    private final Path script;

    public GitFixture(Path base) throws IOException {
        this.base = base;
        this.markers = Files.createDirectories(base.resolve("markers"));
        this.script = base.resolve("mark.sh");
        // touches the marker it is named after; passes its stdin through (so it also works as a filter,
        // a pager or textconv) and exits 0
        Files.writeString(script, "#!/bin/sh\ntouch '" + markers + "'/\"$1\"\nshift\n"
                + "if [ -n \"$1\" ] && [ -f \"$1\" ]; then cat \"$1\"; else cat 2>/dev/null; fi\nexit 0\n");
        script.toFile().setExecutable(true);
    }

    /** A command that leaves the marker {@code name} (for a config value run by the shell). */
    public String marker(String name) {
        return "'" + script + "' " + name;
    }

    /** An executable script file that leaves the marker (for hooks and fsmonitor). */
    public Path markerScript(Path file, String name) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\ntouch '" + markers + "/" + name + "'\nexit 0\n");
        file.toFile().setExecutable(true);
        return file;
    }

    public boolean marked(String name) {
        return Files.exists(markers.resolve(name));
    }

    public List<String> marks() throws IOException {
        try (var s = Files.list(markers)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    public void clearMarks() throws IOException {
        for (String m : marks()) {
            Files.delete(markers.resolve(m));
        }
    }

    /** A new repository {@code name} with one commit of {@code a.txt}. */
    public Path repo(String name) throws IOException {
        Path r = Files.createDirectories(base.resolve(name));
        plain(r, "init", "-q", "-b", "main");
        plain(r, "config", "user.email", "t@example.com");
        plain(r, "config", "user.name", "T");
        Files.writeString(r.resolve("a.txt"), "one\n");
        plain(r, "add", "a.txt");
        plain(r, "commit", "-q", "-m", "first");
        return r;
    }

    /** Plain git in {@code dir}, with the test's own environment plus {@code env}; its stdout, failing on error. */
    public String plain(Path dir, String... args) throws IOException {
        Result r = plainWith(dir, Map.of(), args);
        if (r.exit != 0) {
            throw new IOException("git " + String.join(" ", args) + " failed in " + dir + ": " + r.err);
        }
        return r.out;
    }

    /** What plain git did. */
    public record Result(int exit, String out, String err) {
    }

    public Result plainWith(Path dir, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        b.environment().putAll(env);
        b.environment().put("GIT_TERMINAL_PROMPT", "0");
        Path out = Files.createTempFile(base, "out", ".txt");
        Path err = Files.createTempFile(base, "err", ".txt");
        b.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = b.start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("git " + String.join(" ", args) + " hung");
            }
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** The host's runner with the test's environment plus {@code extra} (the host's environment then). */
    public static HardenedGit hardened(Map<String, String> extra) throws GitException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(extra);
        return new HardenedGit(env);
    }

    public Path base() {
        return base;
    }
}
