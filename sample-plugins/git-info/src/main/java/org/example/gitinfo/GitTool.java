package org.example.gitinfo;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import pi.host.api.ErrorCode;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/**
 * The {@code git} tool: status, log and diff read the workspace repository; commit records what the
 * user (or the agent, through Bash) staged. The descriptor declares status, log and diff plan-safe,
 * so Plan and Goal can look but never commit.
 */
public final class GitTool implements PluginTool {

    static final int DEFAULT_LOG_COUNT = 20;
    static final int MAX_LOG_COUNT = 200;

    private final HardenedGit git;

    /** The runtime's way in: the {@code git} on the host's PATH. */
    public GitTool() {
        this(new GitRunner("git"));
    }

    GitTool(GitRunner git) {
        this.git = new HardenedGit(git);
    }

    @Override
    public ToolResult execute(ToolCall call) throws InterruptedException {
        Map<String, Object> args = call.arguments();
        Object action = args.get("action");
        List<String> command;
        try {
            command = command(String.valueOf(action), args);
        } catch (IllegalArgumentException e) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, e.getMessage());
        }
        if (call.isCancelled()) {
            return ToolResult.error(ErrorCode.TOOL_ABORTED, "cancelled before git started");
        }
        GitRunner.Outcome outcome;
        try {
            outcome = git.run(call, command);
        } catch (IOException e) {
            return ToolResult.error(ErrorCode.TOOL_FAILED, "could not run git (is it installed and on PATH?): "
                    + e.getMessage());
        } catch (HardenedGit.Refused e) {
            return ToolResult.error(ErrorCode.PERMISSION_DENIED, e.getMessage());
        }
        return result((String) action, args, outcome);
    }

    /** The git command line for an action; the arguments were validated by the host, this re-checks what matters. */
    private static List<String> command(String action, Map<String, Object> args) {
        List<String> c = new ArrayList<>();
        switch (action) {
            case "status":
                c.addAll(List.of("status", "--short", "--branch", "--ignore-submodules=all"));
                break;
            case "log":
                // %G? or --show-signature would run gpg.program; the settings switch signatures off as well
                c.addAll(List.of("log", "-n", Integer.toString(count(args.get("count"))), "--date=short",
                        "--pretty=format:%h %ad %an: %s", "--no-show-signature", "--no-ext-diff", "--no-textconv"));
                addPath(c, args.get("path"));
                break;
            case "diff":
                // no diff.external, diff.<driver>.command or textconv; the flag beats a submodule's own ignore
                c.addAll(List.of("diff", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all"));
                if (Boolean.TRUE.equals(args.get("staged"))) {
                    c.add("--cached");
                }
                addPath(c, args.get("path"));
                break;
            case "commit":
                Object message = args.get("message");
                if (!(message instanceof String) || ((String) message).isBlank()) {
                    throw new IllegalArgumentException("commit needs a non-empty message");
                }
                // only what is staged: the tool never decides which files go in; no hook, no signing
                c.addAll(List.of("commit", "--no-verify", "--no-gpg-sign", "-m", (String) message));
                break;
            default:
                throw new IllegalArgumentException("action must be status, log, diff or commit, not " + action);
        }
        return c;
    }

    private static int count(Object value) {
        if (value == null) {
            return DEFAULT_LOG_COUNT;
        }
        if (!(value instanceof Number) || ((Number) value).intValue() < 1
                || ((Number) value).intValue() > MAX_LOG_COUNT) {
            throw new IllegalArgumentException("count must be a whole number from 1 to " + MAX_LOG_COUNT);
        }
        return ((Number) value).intValue();
    }

    /** A workspace-relative path after {@code --}; absolute paths and ones that climb out are refused. */
    private static void addPath(List<String> command, Object value) {
        if (value == null) {
            return;
        }
        Path p;
        try {
            p = Path.of(String.valueOf(value)).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("path is not a valid path: " + value);
        }
        if (String.valueOf(value).isEmpty() || p.isAbsolute() || p.startsWith("..")) {
            throw new IllegalArgumentException("path must be relative to the workspace and stay inside it: " + value);
        }
        command.add("--");
        command.add(p.toString().isEmpty() ? "." : p.toString());
    }

    private static ToolResult result(String action, Map<String, Object> args, GitRunner.Outcome o) {
        if (o.cancelled()) {
            return ToolResult.error(ErrorCode.TOOL_ABORTED, "git " + action + " was cancelled");
        }
        if (o.timedOut()) {
            return ToolResult.error(ErrorCode.TOOL_TIMEOUT, "git " + action + " did not finish in time");
        }
        if (o.exitCode() != 0) {
            // git says "nothing to commit" on stdout, fatal errors on stderr
            String why = (o.stderr().strip() + "\n" + o.stdout().strip()).strip();
            return ToolResult.builder().error(ErrorCode.TOOL_FAILED)
                    .text("git " + action + " failed (exit " + o.exitCode() + "): " + why)
                    .detail("action", action).detail("exitCode", o.exitCode()).build();
        }
        String text = o.stdout().strip();
        if (text.isEmpty()) {
            text = empty(action, args);
        }
        if (o.truncated()) {
            text += "\n[output cut at " + GitRunner.MAX_STDOUT / 1024 + " KiB; narrow it with path or count]";
        }
        return ToolResult.builder().text(text).truncated(o.truncated())
                .detail("action", action).detail("exitCode", 0).build();
    }

    private static String empty(String action, Map<String, Object> args) {
        switch (action) {
            case "diff":
                return Boolean.TRUE.equals(args.get("staged")) ? "no staged changes" : "no unstaged changes";
            case "log":
                return "no commits";
            default:
                return "";
        }
    }
}
