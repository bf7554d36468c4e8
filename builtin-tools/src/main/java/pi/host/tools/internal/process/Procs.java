package pi.host.tools.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code /proc} (Linux): which processes carry a marker in their environment, and who is still running. */
final class Procs {

    private static final Path PROC = Path.of("/proc");

    private Procs() {
    }

    static boolean available() {
        return Files.isDirectory(PROC.resolve("self"));
    }

    /**
     * Every process whose environment holds {@code NAME=value} exactly. Descendants that escaped the
     * tree (double fork, setsid) keep the environment they were started with, so this finds them
     * wherever they were re-parented. Processes of other users are unreadable and skipped.
     */
    static List<Long> withEnvironment(String name, String value) {
        List<Long> found = new ArrayList<>();
        if (!available()) {
            return found;
        }
        byte[] needle = (name + "=" + value).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC)) {
            for (Path dir : dirs) {
                long pid = pidOf(dir);
                if (pid <= 1 || pid == self) {
                    continue;
                }
                try {
                    if (containsEntry(Files.readAllBytes(dir.resolve("environ")), needle)) {
                        found.add(pid);
                    }
                } catch (IOException | SecurityException e) {
                    // gone, or not ours to read
                }
            }
        } catch (IOException e) {
            return found;
        }
        return found;
    }

    /** True while {@code pid} exists and is neither a zombie nor dead. */
    static boolean running(long pid) {
        char state = state(pid);
        return state != 0 && state != 'Z' && state != 'X';
    }

    /** True when {@code pid} is a zombie (exited, not yet reaped). */
    static boolean zombie(long pid) {
        return state(pid) == 'Z';
    }

    /** The state letter of {@code /proc/<pid>/stat}, or 0 when the process does not exist. */
    static char state(long pid) {
        if (!available()) {
            return ProcessHandle.of(pid).map(h -> h.isAlive() ? 'R' : (char) 0).orElse((char) 0);
        }
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
            int close = stat.lastIndexOf(')'); // the command name may itself contain ')' and spaces
            return close < 0 || close + 2 >= stat.length() ? 0 : stat.charAt(close + 2);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * True when this process has a controlling terminal ({@code tty_nr} of {@code /proc/self/stat}
     * is not 0), and when that cannot be read: then a command is best kept from the terminal.
     */
    static boolean hasControllingTerminal() {
        try {
            String stat = Files.readString(PROC.resolve("self").resolve("stat"), StandardCharsets.UTF_8);
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(rest[4]) != 0;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** The parent pid from {@code /proc/<pid>/stat}, or -1. */
    static long parent(long pid) {
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(rest[1]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long pidOf(Path dir) {
        String name = dir.getFileName().toString();
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return -1;
            }
        }
        try {
            return Long.parseLong(name);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean containsEntry(byte[] environ, byte[] needle) {
        int start = 0;
        for (int i = 0; i <= environ.length; i++) {
            if (i == environ.length || environ[i] == 0) {
                if (i - start == needle.length && java.util.Arrays.equals(environ, start, i, needle, 0, needle.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }
}
