package org.example.gitinfo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import pi.host.api.ToolResult;
import pi.host.testkit.FakeToolCall;

/**
 * A real repository as the workspace, for the tests that show what plain git runs and this plugin
 * does not: plain {@code git} to arrange it and to show the vector is live, stand-in programs that
 * leave a marker (outside the workspace) when anything runs them, and the tool itself.
 */
final class TestRepo {

    final Path root;
    private final Path markers;

    /** A repository at {@code root} (created) with one commit of {@code a.txt}; markers go to {@code outside}. */
    TestRepo(Path root, Path outside) throws IOException, InterruptedException {
        this.root = Files.createDirectories(root);
        this.markers = Files.createDirectories(outside.resolve("markers"));
        git("init", "-q", "-b", "main");
        git("config", "user.name", "Test Author");
        git("config", "user.email", "author@example.org");
        commit("a.txt", "a\n", "init");
    }

    /**
     * A program that leaves the marker {@code name} when it runs and passes its stdin through (so it
     * can stand in for a filter, a textconv or a pager; as a hook or a signer it fails afterwards).
     */
    String program(String name) throws IOException {
        Path script = markers.resolveSibling("program-" + name);
        Files.writeString(script, "#!/bin/sh\ntouch '" + markers.resolve(name) + "'\ncat \"${1:--}\" 2>/dev/null\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script.toString();
    }

    /** A program that leaves the marker {@code name} and fails at once, reading nothing (a transport, say). */
    String failing(String name) throws IOException {
        Path script = markers.resolveSibling("failing-" + name);
        Files.writeString(script, "#!/bin/sh\ntouch '" + markers.resolve(name) + "'\nexit 1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script.toString();
    }

    /** A hook (or fsmonitor hook) that leaves marker {@code name} and succeeds. */
    void hook(Path dir, String hook, String name) throws IOException {
        Path file = Files.createDirectories(dir).resolve(hook);
        Files.writeString(file, "#!/bin/sh\ntouch '" + markers.resolve(name) + "'\nexit 0\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    boolean ran(String name) {
        return Files.exists(markers.resolve(name));
    }

    /** Markers left so far, by name. */
    List<String> ranSoFar() throws IOException {
        try (var all = Files.list(markers)) {
            return all.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    void commit(String file, String content, String message) throws IOException, InterruptedException {
        Path f = root.resolve(file);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
        git("add", file);
        git("commit", "-q", "--no-verify", "-m", message);
    }

    /** Gives {@code file} a new modification time, so that a status must read it again (through its filters). */
    void touch(String file) throws IOException {
        FileTime t = Files.getLastModifiedTime(root.resolve(file));
        Files.setLastModifiedTime(root.resolve(file), FileTime.from(t.toInstant().plusSeconds(3600 + Instant.now()
                .getNano() % 1000)));
    }

    /** Plain git in the repository, with this JVM's environment; fails the test unless it exits 0. */
    String git(String... args) throws IOException, InterruptedException {
        Run r = plain(List.of(args), Map.of());
        assertEquals(0, r.exit(), () -> "git " + String.join(" ", args) + ": " + r.output());
        return r.output();
    }

    /** What plain git did: its exit code and its output (stdout and stderr). */
    record Run(int exit, String output) {
    }

    /** Plain git in the repository with {@code env} added to this JVM's environment, whatever its exit. */
    Run plain(List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out);
    }

    /** Plain git on a terminal ({@code script} gives it one), where git starts a pager. */
    Run plainOnATerminal(String args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("script", "-qec", "git " + args, "/dev/null").directory(root.toFile())
                .redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out);
    }

    /** The tool on this repository (git from PATH, this JVM's environment). */
    ToolResult tool(Map<String, Object> args) throws InterruptedException {
        return new GitTool().execute(new FakeToolCall(root, args));
    }

    /** The tool with another git executable or inherited environment. */
    ToolResult tool(GitRunner git, Map<String, Object> args) throws InterruptedException {
        return new GitTool(git).execute(new FakeToolCall(root, args));
    }

    static String text(ToolResult r) {
        return String.join("\n", r.text());
    }
}
