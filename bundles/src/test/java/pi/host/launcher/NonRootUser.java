package pi.host.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Real processes run as a user that is not root, for tests about what a process of the host's own
 * user can reach: root passes every such check (it may open any {@code /proc/<pid>/fd}), so a test run
 * as root proves nothing. As root, commands drop to {@code nobody} with {@code setpriv}; as any
 * other user they run as that user. Either way they get a small fixed environment.
 */
final class NonRootUser {

    private static final String USER = "nobody";
    private static final String GROUP = "nogroup";
    private static final String PATH = "/usr/local/bin:/usr/bin:/bin";

    private final boolean switching;

    private NonRootUser(boolean switching) {
        this.switching = switching;
    }

    /** The user the tests of this run drop to. */
    static NonRootUser get() {
        try {
            return new NonRootUser(((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when the tests run as root and the commands as {@code nobody}. */
    boolean switching() {
        return switching;
    }

    /** A new folder under {@code parent} that only this user may use. */
    Path ownedFolder(Path parent, String name) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        if (switching) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
            UserPrincipal user = users.lookupPrincipalByName(USER);
            GroupPrincipal group = users.lookupPrincipalByGroupName(GROUP);
            view.setOwner(user);
            view.setGroup(group);
        }
        return dir;
    }

    /**
     * A copy of {@code source} (a file or a folder tree) at {@code target} that everyone may read: the
     * build folder may be under root's home, which {@code nobody} cannot enter.
     */
    static Path readableCopy(Path source, Path target) throws IOException {
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path to = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
                } else {
                    Files.createDirectories(to.getParent());
                    Files.copy(p, to);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString(
                            Files.isExecutable(p) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
        return target;
    }

    /** {@code command} as this user, with HOME {@code home}, a system PATH and nothing else of ours in its environment. */
    ProcessBuilder command(Path home, List<String> command) {
        List<String> argv = new ArrayList<>();
        if (switching) {
            argv.addAll(List.of("setpriv", "--reuid=" + USER, "--regid=" + GROUP, "--clear-groups", "--inh-caps=-all",
                    "--"));
        }
        argv.addAll(List.of("env", "-i", "HOME=" + home, "PATH=" + PATH, "LANG=C.UTF-8", "SHELL=/bin/bash"));
        argv.addAll(command);
        return new ProcessBuilder(argv).directory(home.toFile()); // the test's own folder may be closed to the user
    }

    /**
     * {@code command} with its stdin and stdout on pipes this user made (two {@code cat}s relay them),
     * as they are when the desktop, running as the same user, spawns the host: the kernel lets a
     * process reopen a pipe through {@code /proc/<pid>/fd} only if it may open the pipe itself, and a
     * pipe is its creator's. The exit code is the command's.
     */
    static List<String> throughOwnPipes(List<String> command) {
        List<String> argv = new ArrayList<>(List.of("bash", "-c", "cat | \"$@\" | cat; exit \"${PIPESTATUS[1]}\"",
                "relay"));
        argv.addAll(command);
        return argv;
    }
}
