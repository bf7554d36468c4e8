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
            p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '/' ? "/dev/null"
                            : "NUL"))).start();
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
                // this loop turns once per record; the per-byte search is its own small method, so the
                // JIT compiles a few bytes of loop for it instead of this method with the receiver inlined
                for (int i = next(buf, scan, end, delimiter); i >= 0; i = next(buf, i + 1, end, delimiter)) {
                    if (!records.accept(buf, start, i - start)) {
                        p.destroyForcibly();
                        return 0;
                    }
                    start = i + 1;
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

    /** The index of the first {@code delimiter} in {@code buf[from, to)}, or -1. */
    static int next(byte[] buf, int from, int to, byte delimiter) {
        for (int i = from; i < to; i++) {
            if (buf[i] == delimiter) {
                return i;
            }
        }
        return -1;
    }
}
