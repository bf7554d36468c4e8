package pi.host.tools.internal.shell;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The user's login-shell PATH (spec §5): {@code $SHELL}, then /bin/zsh, /bin/bash, /bin/sh, asked with
 * {@code -lic 'printf %s "$PATH"'} within 5 s. Best effort: a missing shell, a non-zero exit or a
 * timeout leave the host's PATH as it is. Probed once per process.
 */
public final class LoginPath {

    static final long BOUND_MS = 5_000;
    private static volatile Optional<String> cached;

    private LoginPath() {
    }

    /** The probed PATH, or empty; the first call probes, later calls answer from the cache. */
    public static Optional<String> get(Map<String, String> env) {
        Optional<String> c = cached;
        if (c == null) {
            synchronized (LoginPath.class) {
                c = cached;
                if (c == null) {
                    c = probe(env, BOUND_MS);
                    cached = c;
                }
            }
        }
        return c;
    }

    static Optional<String> probe(Map<String, String> env, long boundMs) {
        if (File.separatorChar == '\\') {
            return Optional.empty();
        }
        for (String shell : candidates(env)) {
            if (!Files.isExecutable(Path.of(shell))) {
                continue;
            }
            Optional<String> path = ask(shell, boundMs);
            if (path.isPresent()) {
                return path;
            }
        }
        return Optional.empty();
    }

    private static List<String> candidates(Map<String, String> env) {
        List<String> shells = new ArrayList<>();
        String user = env.get("SHELL");
        if (user != null && !user.isBlank()) {
            shells.add(user);
        }
        for (String s : List.of("/bin/zsh", "/bin/bash", "/bin/sh")) {
            if (!shells.contains(s)) {
                shells.add(s);
            }
        }
        return shells;
    }

    private static Optional<String> ask(String shell, long boundMs) {
        Process p = null;
        try {
            ProcessBuilder pb = new ProcessBuilder(shell, "-lic", "printf %s \"$PATH\"")
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            p = pb.start();
            InputStream out = p.getInputStream();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            Process proc = p;
            Thread reader = new Thread(() -> {
                try {
                    out.transferTo(bytes);
                } catch (java.io.IOException e) {
                    // killed
                }
            }, "pi-login-path");
            reader.setDaemon(true);
            reader.start();
            if (!proc.waitFor(boundMs, TimeUnit.MILLISECONDS) || proc.exitValue() != 0) {
                return Optional.empty();
            }
            reader.join(500);
            // an interactive rc file may print before the PATH; the PATH is the last line
            String text = bytes.toString(StandardCharsets.UTF_8).trim();
            String last = text.substring(text.lastIndexOf('\n') + 1).trim();
            return last.isEmpty() || !last.contains("/") ? Optional.empty() : Optional.of(last);
        } catch (Exception e) {
            return Optional.empty();
        } finally {
            if (p != null) {
                // the shell first, then what it had (docs/security.md, "Stopping a process tree")
                List<ProcessHandle> below = p.descendants().toList();
                p.destroyForcibly();
                below.forEach(ProcessHandle::destroyForcibly);
            }
        }
    }
}
