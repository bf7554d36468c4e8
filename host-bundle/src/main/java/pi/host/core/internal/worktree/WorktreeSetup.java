package pi.host.core.internal.worktree;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.store.WorktreeRecord;
import pi.host.spi.ChildProcesses;
import pi.host.spi.ShellCommands;

/**
 * The per-project setup command (spec §4e): once in each new isolated worktree, in the user's default
 * command shell ({@link ShellCommands}, the Bash tool's way of starting a command), in the project's place
 * in the worktree, with the session's {@code PI_PORT}, {@code PI_PROJECT_ROOT} and {@code PI_WORKTREE_ROOT},
 * bounded by the setting's timeout (then its whole tree is killed). Its outcome is kept with the worktree:
 * exit code, whether it timed out, the last 64 Ki characters of each stream.
 */
@Component(service = WorktreeSetup.class)
public final class WorktreeSetup {

    /** Characters of each stream kept (the tail: the end of a build says how it went). */
    static final int KEPT_CHARS = 64 * 1024;

    private static final ExecutorService PUMPS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "pi-worktree-setup");
        t.setDaemon(true);
        return t;
    });

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    private volatile ShellCommands shell;

    /** Runs {@code command} for the new worktree and returns its outcome as JSON (never throws). */
    public String run(WorktreeRecord w, Map<String, String> variables, String command, Duration timeout) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("command", command);
        ShellCommands s = shell;
        long started = System.nanoTime();
        if (s == null) {
            out.put("state", "failed");
            out.put("error", "no shell service: the tools bundle is not running");
            return json(out);
        }
        ChildProcesses.Child child;
        try {
            child = s.start(command, w.workspaceRoot(), variables);
        } catch (IOException | RuntimeException e) {
            out.put("state", "failed");
            out.put("error", "the setup command cannot be started: " + e.getMessage());
            return json(out);
        }
        Process p = child.process();
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> tail(p.getInputStream()), PUMPS);
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> tail(p.getErrorStream()), PUMPS);
        boolean done;
        try {
            done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done = false;
        }
        if (!done) {
            child.killTree();
        }
        out.put("state", !done ? "timedOut" : p.exitValue() == 0 ? "succeeded" : "failed");
        out.put("exitCode", done ? p.exitValue() : null);
        out.put("timeoutSeconds", timeout.toSeconds());
        out.put("durationMs", (System.nanoTime() - started) / 1_000_000);
        out.put("stdout", stdout.completeOnTimeout("", 10, TimeUnit.SECONDS).join());
        out.put("stderr", stderr.completeOnTimeout("", 10, TimeUnit.SECONDS).join());
        return json(out);
    }

    private static String tail(InputStream in) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                all.write(buffer, 0, n);
                if (all.size() > 4 * KEPT_CHARS) {
                    byte[] b = all.toByteArray();
                    all.reset();
                    all.write(b, b.length - KEPT_CHARS, KEPT_CHARS);
                }
            }
        } catch (IOException e) {
            // the process is gone: what was read is what there is
        }
        String s = all.toString(StandardCharsets.UTF_8);
        return s.length() > KEPT_CHARS ? s.substring(s.length() - KEPT_CHARS) : s;
    }

    private static String json(Map<String, Object> out) {
        try {
            return Json.mapper().writeValueAsString(out);
        } catch (IOException e) {
            return "{\"state\":\"failed\"}";
        }
    }
}
