package pi.host.plugins.internal;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;

/** A call with the given arguments (adapter tests). */
record FakeCall(Map<String, Object> arguments) implements ToolCall {
    @Override
    public String toolName() {
        return "git";
    }

    @Override
    public String sessionId() {
        return "s1";
    }

    @Override
    public String turnId() {
        return "t1";
    }

    @Override
    public String toolCallId() {
        return "c1";
    }

    @Override
    public Optional<ResolvedPath> path() {
        return Optional.empty();
    }

    @Override
    public Path workspaceRoot() {
        return Path.of("/tmp");
    }

    @Override
    public Path scratchDir() {
        return Path.of("/tmp");
    }

    @Override
    public String traceId() {
        return "tr_1";
    }

    @Override
    public Instant deadline() {
        return Instant.now().plusSeconds(60);
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public void onCancel(Runnable action) {
    }

    @Override
    public void output(Stream stream, String chunk) {
    }
}
