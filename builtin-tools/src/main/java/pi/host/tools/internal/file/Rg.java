package pi.host.tools.internal.file;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import pi.host.api.ToolCall;
import pi.host.tools.internal.shell.LoginPath;

/**
 * The system {@code rg}: found on the host's PATH, else on the user's login-shell PATH (probed once,
 * bounded; {@link LoginPath}). Always run with {@code --no-config --no-require-git
 * --no-ignore-global --no-ignore-exclude} so its filters are the ones the in-process fallback
 * implements.
 */
final class Rg {

    static final List<String> COMMON = List.of("--no-config", "--no-require-git", "--no-ignore-global",
            "--no-ignore-exclude", "--color", "never");

    private static volatile Optional<Path> located;

    private Rg() {
    }

    /** The rg executable, or empty when there is none. */
    static Optional<Path> locate() {
        Optional<Path> l = located;
        if (l == null) {
            Map<String, String> env = System.getenv();
            l = onPath(env.get("PATH"));
            if (l.isEmpty()) {
                l = LoginPath.get(env).flatMap(Rg::onPath);
            }
            located = l;
        }
        return l;
    }

    /**
     * Starts the host's rg once with {@code --version}, as {@link #run} starts it, on the file tools' warm-up
     * thread while the host starts: a fresh JVM's first process start costs ~15–20 ms more than its next ones
     * (the process classes' initialisation, the reaper thread, jspawnhelper's first exec; measured in
     * docs/performance-log.md, round {@code grep15}), which a session's first Grep otherwise pays on its own
     * path before rg runs. Also locates rg when it is on the host's PATH, which is what {@link #locate} finds
     * first (the login-shell PATH is not probed here: that probe waits for a pause, {@link LoginPath}). It
     * names no path, reads no file, belongs to no call and writes no audit row; a call never waits for it.
     * Returns whether rg ran; best effort (a missing or failing rg is the call's to find and report).
     */
    static boolean warmUp() {
        Optional<Path> rg = onPath(System.getenv("PATH"));
        if (rg.isEmpty()) {
            return false;
        }
        if (located == null) {
            located = rg; // what locate() computes first; the same value if a call got there before
        }
        Process p = null;
        try {
            p = builder(List.of(rg.get().toString(), "--version")).start();
            if (!p.waitFor(WARM_UP_BOUND_MS, TimeUnit.MILLISECONDS)) {
                return false;
            }
            try (InputStream in = p.getInputStream()) {
                in.readAllBytes(); // a line or two, in the pipe already: rg has exited
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            if (p != null) {
                p.destroyForcibly();
            }
        }
    }

    /** How long {@link #warmUp} waits for {@code rg --version}. */
    static final long WARM_UP_BOUND_MS = 5_000;

    /** rg's process as every run starts it: stdin from the null device, stderr discarded, stdout a pipe. */
    private static ProcessBuilder builder(List<String> cmd) {
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '/' ? "/dev/null" : "NUL")));
    }

    private static Optional<Path> onPath(String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            for (String name : List.of("rg", "rg.exe")) {
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * {@code args} with one {@code --glob !/<path>} per directory in {@code skipped} (paths relative to
     * the directory rg searches): rg then neither enters nor lists them. Glob metacharacters in the
     * names are escaped, so a name is matched literally.
     */
    static List<String> skipping(List<String> args, Set<String> skipped) {
        if (skipped.isEmpty()) {
            return args;
        }
        List<String> out = new ArrayList<>(args);
        for (String rel : skipped) {
            StringBuilder glob = new StringBuilder("!/");
            for (int i = 0; i < rel.length(); i++) {
                char c = rel.charAt(i);
                if ("\\*?[]{}!".indexOf(c) >= 0) {
                    glob.append('\\');
                }
                glob.append(c);
            }
            out.add("--glob");
            out.add(glob.toString());
        }
        return out;
    }

    /** Receives one record of rg's output: {@code len} bytes of {@code buf} from {@code off}, delimiter excluded. */
    @FunctionalInterface
    interface Records {
        /** Returns false when no more records are wanted (rg is then stopped). */
        boolean accept(byte[] buf, int off, int len);
    }

    /**
     * Runs rg in {@code cwd}, handing each {@code delimiter}-terminated record of its stdout to
     * {@code records} (read in bulk; a record is a slice of the read buffer, valid during the call).
     * Returns the exit code; 0 when the receiver stopped it early; -1 when it could not be started.
     */
    static int run(Path rg, List<String> args, Path cwd, ToolCall call, byte delimiter, Records records)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(rg.toString());
        cmd.addAll(COMMON);
        cmd.addAll(args);
        Process p;
        try {
            p = builder(cmd).directory(cwd.toFile()).start();
        } catch (IOException e) {
            return -1;
        }
        call.onCancel(p::destroyForcibly);
        try (InputStream in = p.getInputStream()) {
            byte[] buf = new byte[64 * 1024];
            int start = 0; // first byte of the record being read
            int end = 0; // bytes in buf
            int n;
            while ((n = in.read(buf, end, buf.length - end)) >= 0) {
                int scan = end;
                end += n;
                for (int i = scan; i < end; i++) {
                    if (buf[i] == delimiter) {
                        if (!records.accept(buf, start, i - start)) {
                            p.destroyForcibly();
                            return 0;
                        }
                        start = i + 1;
                    }
                }
                if (start > 0) { // keep the partial record at the front
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                } else if (end == buf.length) { // one record longer than the buffer
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
            if (end > start && !records.accept(buf, start, end - start)) {
                p.destroyForcibly();
                return 0;
            }
            return p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return -1;
        } finally {
            p.destroyForcibly();
        }
    }
}
