package pi.host.tools.internal.file;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
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
     * Runs rg in {@code cwd}, handing each NUL/newline-delimited record of its stdout to {@code record}.
     * Returns the exit code; -1 when it could not be started.
     */
    static int run(Path rg, List<String> args, Path cwd, ToolCall call, byte delimiter, Consumer<byte[]> record)
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
        try (InputStream in = new BufferedInputStream(p.getInputStream(), 64 * 1024)) {
            ByteArrayOutputStream cur = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                if (b == delimiter) {
                    record.accept(cur.toByteArray());
                    cur.reset();
                } else {
                    cur.write(b);
                }
            }
            if (cur.size() > 0) {
                record.accept(cur.toByteArray());
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
