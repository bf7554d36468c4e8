package pi.host.tools.internal.shell;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import pi.host.api.ErrorCode;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;
import pi.host.tools.internal.process.CommandThreads;
import pi.host.tools.internal.process.OutputBuffer;
import pi.host.tools.internal.process.ProcessSupervisor;
import pi.host.tools.internal.process.StreamPump;

/**
 * One foreground command: runs it, streams both outputs as {@code tool.output}, and ends on exit
 * (after both streams closed), on its timeout or on abort. Timeout and abort kill the whole tree
 * and return what was collected.
 */
final class ForegroundRun {

    /** Characters kept from the start and from the end of each stream. */
    static final int HEAD_CHARS = 32 * 1024;
    static final int TAIL_CHARS = 32 * 1024;
    /** Characters of each stream sent as tool.output at most (the host caps a call's stream at 4 Mi as well). */
    static final long STREAM_CHARS = 4L * 1024 * 1024;
    /** After a kill, how long to wait for the streams to close before answering with what we have. */
    static final long DRAIN_AFTER_KILL_MS = 1_000;

    private final ProcessSupervisor supervisor;
    private final ToolCall call;
    private final long timeoutMs;
    private final OutputBuffer stdout = new OutputBuffer(HEAD_CHARS, TAIL_CHARS);
    private final OutputBuffer stderr = new OutputBuffer(HEAD_CHARS, TAIL_CHARS);

    ForegroundRun(ProcessSupervisor supervisor, ToolCall call, long timeoutMs) {
        this.supervisor = supervisor;
        this.call = call;
        this.timeoutMs = timeoutMs;
    }

    ToolResult run(ProcessBuilder builder, List<String> argv) throws IOException, InterruptedException {
        long began = System.nanoTime();
        ProcessSupervisor.Started started = supervisor.startPumped(builder, argv);
        Process process = started.process();
        CommandThreads threads = supervisor.threads();
        StreamPump out = new StreamPump(process.getInputStream(), stdout, c -> call.output(ToolCall.Stream.STDOUT, c),
                STREAM_CHARS)
                .start(threads, "pi-bash-out-" + process.pid());
        StreamPump err = new StreamPump(process.getErrorStream(), stderr, c -> call.output(ToolCall.Stream.STDERR, c),
                STREAM_CHARS)
                .start(threads, "pi-bash-err-" + process.pid());
        CompletableFuture<String> end = new CompletableFuture<>();
        call.onCancel(() -> end.complete("abort"));
        // exit is not the end while something still holds the pipes: both must close as well
        CompletableFuture.allOf(process.onExit(), out.done(), err.done()).thenRun(() -> end.complete("exit"));
        String why;
        try {
            why = end.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            why = "timeout";
            end.complete(why);
        } catch (ExecutionException e) {
            why = "exit";
        }
        if (!"exit".equals(why)) {
            supervisor.killTree(started);
            out.await(DRAIN_AFTER_KILL_MS);
            err.await(DRAIN_AFTER_KILL_MS);
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        Integer exit = process.waitFor(DRAIN_AFTER_KILL_MS, TimeUnit.MILLISECONDS) ? process.exitValue() : null;
        return result(why, exit, elapsedMs);
    }

    private ToolResult result(String why, Integer exit, long elapsedMs) {
        String out = stdout.text();
        String err = stderr.text();
        boolean cut = stdout.cut() > 0 || stderr.cut() > 0;
        ToolResult.Builder b = ToolResult.builder().truncated(cut);
        switch (why) {
            case "timeout":
                b.error(ErrorCode.TOOL_TIMEOUT).text("The command did not finish within " + timeoutMs
                        + " ms and its process tree was killed. Raise 'timeout' (seconds, at most 21600), split the"
                        + " command into shorter steps, or run long-lived processes with runInBackground.");
                break;
            case "abort":
                b.error(ErrorCode.TOOL_ABORTED).text("The command was aborted and its process tree was killed;"
                        + " the output collected so far follows.");
                break;
            default:
                if (exit == null || exit != 0) {
                    b.error(ErrorCode.TOOL_FAILED).text("The command exited with status " + exit + ".");
                }
        }
        b.text(render(out, err, exit));
        b.detail("exitCode", exit).detail("stdout", out).detail("stderr", err).detail("timeoutMs", timeoutMs)
                .detail("durationMs", elapsedMs);
        if (cut) {
            b.detail("stdoutCutChars", stdout.cut()).detail("stderrCutChars", stderr.cut());
        }
        return b.build();
    }

    private static String render(String out, String err, Integer exit) {
        StringBuilder s = new StringBuilder();
        s.append(out.isEmpty() ? "(no output)" : out);
        if (!err.isEmpty()) {
            s.append(out.endsWith("\n") || out.isEmpty() ? "" : "\n").append("[stderr]\n").append(err);
        }
        if (exit != null && exit != 0) {
            s.append(s.charAt(s.length() - 1) == '\n' ? "" : "\n").append("[exit code ").append(exit).append(']');
        }
        return s.toString();
    }
}
