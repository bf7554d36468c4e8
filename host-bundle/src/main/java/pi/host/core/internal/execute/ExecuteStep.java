package pi.host.core.internal.execute;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import pi.host.api.PathKind;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.policy.HostState;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.session.SessionService;
import pi.host.spi.DeclaredPath;
import pi.host.spi.ToolKind;

/**
 * Phase two: the provider's {@code execute} on the host's call object (the paths as re-checked, the
 * walks' exclusions, cancellation, output), on a worker with the tool's deadline (ToolRunner). The call
 * ends with its result from whichever thread gets there first; a read-only tool's abort or any
 * timeout answers without waiting for the body.
 */
final class ExecuteStep implements Step {

    private final SessionService sessions;
    private final HostEvents events;
    private final HostState hostState;
    private final ToolRunner runner;

    ExecuteStep(SessionService sessions, HostEvents events, HostState hostState, ToolRunner runner) {
        this.sessions = sessions;
        this.events = events;
        this.hostState = hostState;
        this.runner = runner;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        ExecuteRequest req = call.request;
        RegisteredTool tool = e.tool;
        Instant deadline = Instant.now().plusMillis(tool.timeoutMs());
        HostToolCall hostCall = new HostToolCall(tool.localName(), call.plainArguments, e.session.id(), req.turnId(),
                req.toolCallId(), call.traceId, deadline, e.paths, e.workspaceRoot,
                sessions.scratchDir(e.session.id()), call.cancel, events, req.messageId(),
                req.delegate() == null ? null : req.delegate().delegationId(), walkExclusions(call, e),
                e.visualizationDir, e.commandVariables, req.client());
        CallEnding ending = call.ending;
        long started = System.nanoTime();
        runner.run(tool.provider(), hostCall, call.cancel, tool.timeoutMs(), tool.kind() == ToolKind.READ, outcome -> {
            call.bodyNanos = System.nanoTime() - started;
            ending.end(Results.envelope(call, tool, outcome, e.paths, hostCall));
        });
        return null;
    }

    /** The host's own state below any directory the call walks (Glob, Grep), which the walk must not enter. */
    private List<Path> walkExclusions(CallState call, Evaluation e) {
        List<DeclaredPath> declared = call.invocation.paths();
        List<Path> out = List.of();
        for (int i = 0; i < declared.size(); i++) {
            PathKind kind = declared.get(i).kind();
            if (kind == PathKind.DIRECTORY || kind == PathKind.FILE_OR_DIRECTORY) {
                List<Path> below = hostState.walkExclusions(e.paths.get(i).absolute());
                if (!below.isEmpty()) {
                    out = out.isEmpty() ? below : concat(out, below);
                }
            }
        }
        return out;
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> out = new ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }
}
