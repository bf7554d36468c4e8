package pi.host.tools.internal.shell;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.Builtin;
import pi.host.spi.CallRoots;
import pi.host.spi.QuietWork;
import pi.host.spi.TaskInfo;
import pi.host.spi.ToolKind;
import pi.host.tools.internal.background.BackgroundTaskManager;
import pi.host.tools.internal.process.ProcessSupervisor;

/**
 * {@code Bash} (spec §5): {@code bash -lc} in the session's workspace root with an empty stdin and no
 * TTY, the login-shell PATH and {@code PI_SCRATCH_DIR} in its environment. The call's own timeout
 * (1 s to 6 h) is enforced here, so the declared {@code timeoutMs} is only the host's backstop
 * above the largest one a call can ask for (docs/decisions.md).
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.EXEC)
@Tool(name = "Bash", risk = Risk.HIGH, mutates = true, timeoutMs = BashTool.HOST_BACKSTOP_MS,
        summary = "Run a shell command in the workspace")
public final class BashTool implements ToolProvider {

    /** The largest call timeout plus time to kill the tree and answer. */
    static final long HOST_BACKSTOP_MS = BashArguments.MAX_TIMEOUT_S * 1000 + 60_000;
    /** The one shell id this platform offers (the shell catalog of spec §5 on Unix). */
    static final String SHELL_ID = "bash";
    /** The dialect commands are written in for {@link #SHELL_ID}. */
    static final String DIALECT = "posix";

    private final ProcessSupervisor supervisor;
    private final BackgroundTaskManager background;
    private final Map<String, String> hostEnv;
    private final PatchLoopGuard patches = new PatchLoopGuard();
    private final AtomicBoolean probeStarted = new AtomicBoolean();
    private final QuietWork quiet;

    @Activate
    public BashTool(@Reference ProcessSupervisor supervisor, @Reference BackgroundTaskManager background,
            @Reference QuietWork quiet) {
        this(supervisor, background, System.getenv(), quiet);
    }

    BashTool(ProcessSupervisor supervisor, BackgroundTaskManager background, Map<String, String> hostEnv,
            QuietWork quiet) {
        this.supervisor = supervisor;
        this.background = background;
        this.hostEnv = hostEnv;
        this.quiet = quiet;
    }

    /**
     * Hands the login-PATH probe to the host's quiet work once a client lists the tools, so the first command
     * rarely waits for it, a host that never lists tools (or is timed for startup) never spawns it, and the
     * login shell (a few dozen processes with a version manager's init) does not start while calls run: it waits
     * for the calls to pause, as they do while a model thinks. A command before that probes itself.
     */
    private void probeLoginPathSoon() {
        if (!probeStarted.compareAndSet(false, true)) {
            return;
        }
        quiet.whenQuiet(() -> LoginPath.get(hostEnv));
    }

    @Override
    public String description() {
        return "Run a bash command (bash -lc) in the session's workspace root. stdin is empty and there is no TTY;"
                + " PI_SCRATCH_DIR names the session's scratch dir for temporary files. timeout is in seconds"
                + " (default 60, at most 21600). Set runInBackground for servers and watchers: the call returns a"
                + " backgroundTaskId at once and the task keeps running; read it with the background panel.";
    }

    @Override
    public String inputSchema() {
        probeLoginPathSoon();
        return "{\"type\":\"object\",\"properties\":{"
                + "\"command\":{\"type\":\"string\",\"description\":\"The bash command line\"},"
                + "\"timeout\":{\"type\":\"number\",\"maximum\":100000000,"
                + "\"description\":\"Seconds, 1 to 21600 (default 60); larger values are read as milliseconds\"},"
                + "\"description\":{\"type\":\"string\",\"description\":\"What the command does, in a few words\"},"
                + "\"runInBackground\":{\"type\":\"boolean\",\"description\":\"Detach: no timeout, survives abort\"},"
                + "\"shell\":{\"type\":\"string\",\"description\":\"The shell id the turn pinned\"}"
                + "},\"required\":[\"command\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) throws Exception {
        BashArguments args;
        try {
            args = BashArguments.parse(call.arguments());
        } catch (BashArguments.Invalid e) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, e.getMessage());
        }
        if (args.shell() != null && !SHELL_ID.equals(args.shell())) {
            return ToolResult.builder().error(ErrorCode.COMMAND_SHELL_CHANGED)
                    .text("the turn pinned shell '" + args.shell() + "' but this host now runs '" + SHELL_ID
                            + "'; start a new turn so the command is written for the current shell")
                    .detail("pinned", args.shell()).detail("effective", SHELL_ID).detail("dialect", DIALECT).build();
        }
        ShellResolver.Resolution shell = ShellResolver.resolve(hostEnv);
        if (shell.shell().isEmpty()) {
            return ToolResult.builder().error(ErrorCode.SHELL_NOT_FOUND).text(ShellResolver.guidance(shell.searched()))
                    .detail("searched", shell.searched()).build();
        }
        ProcessBuilder builder = builder(call);
        List<String> argv = List.of(shell.shell().get().toString(), "-lc", args.command());
        if (args.background()) {
            return startBackground(call, args, builder, argv);
        }
        ToolResult result = new ForegroundRun(supervisor, call, args.timeoutMs()).run(builder, argv);
        result = result.toBuilder().detail("shell", Map.of("id", SHELL_ID, "dialect", DIALECT,
                "path", shell.shell().get().toString())).build();
        return guardPatches(call, args, result);
    }

    private ProcessBuilder builder(ToolCall call) {
        ProcessBuilder builder = new ProcessBuilder().directory(call.workspaceRoot().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> variables = call instanceof CallRoots ? ((CallRoots) call).commandVariables() : Map.of();
        return environment(builder, hostEnv, call.scratchDir(), variables);
    }

    /**
     * A command's environment (Bash's and the host's own commands', ShellCommandService): the host's, the
     * login-shell PATH, {@code PI_SCRATCH_DIR} when there is a scratch dir, the call's variables (an
     * isolated session's PI_PORT, PI_PROJECT_ROOT, PI_WORKTREE_ROOT), never the tree marker of the host.
     */
    static ProcessBuilder environment(ProcessBuilder builder, Map<String, String> hostEnv, Path scratch,
            Map<String, String> variables) {
        Map<String, String> env = builder.environment();
        env.clear();
        env.putAll(hostEnv);
        Optional<String> loginPath = LoginPath.get(hostEnv);
        loginPath.ifPresent(p -> env.put("PATH", p));
        if (scratch != null) {
            env.put("PI_SCRATCH_DIR", scratch.toString().replace('\\', '/'));
        }
        env.putAll(variables);
        env.remove(ProcessSupervisor.MARKER);
        return builder;
    }

    private ToolResult startBackground(ToolCall call, BashArguments args, ProcessBuilder builder, List<String> argv)
            throws java.io.IOException {
        try {
            TaskInfo task = background.start(call.sessionId(), args.command(), args.description(), builder, argv);
            return ToolResult.builder().text("started in the background as " + task.taskId())
                    .detail("backgroundTaskId", task.taskId()).build();
        } catch (BackgroundTaskManager.Refused e) {
            return ToolResult.error(e.code(), e.getMessage());
        }
    }

    private ToolResult guardPatches(ToolCall call, BashArguments args, ToolResult result) {
        if (result.errorCode() != ErrorCode.TOOL_FAILED || !PatchLoopGuard.isPatch(args.command())) {
            return result;
        }
        int n = patches.failed(call);
        if (n < PatchLoopGuard.LIMIT) {
            return result;
        }
        Map<String, Object> details = new HashMap<>(result.details());
        ToolResult.Builder b = ToolResult.builder().error(ErrorCode.EDIT_RETRY_LIMIT).terminate(true)
                .text("This is failed patch command number " + n + " in this turn (or delegate run). Stop retrying: report the exact"
                        + " mismatch below to the user. Do not hand-edit unified-diff hunk headers; re-read the"
                        + " target and use Edit, or regenerate the patch from the current file.");
        result.text().forEach(b::text);
        details.forEach(b::detail);
        return b.truncated(result.truncated()).build();
    }
}
