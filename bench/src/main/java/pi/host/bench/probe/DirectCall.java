package pi.host.bench.probe;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;
import pi.host.api.PluginTool;

/**
 * The baseline: the plugin tool's {@code execute} called directly with a call object built once, as
 * a caller without the host would. Offered to the benchmark as a {@link Supplier} (a JDK type, so
 * the benchmark's class loader and the probe bundle's need not share {@code pi.host.api}).
 */
final class DirectCall implements Supplier<Object>, ToolCall {

    private final PluginTool tool;
    private final Map<String, Object> arguments = Map.of("text", "hello");

    DirectCall(PluginTool tool) {
        this.tool = tool;
    }

    @Override
    public Object get() {
        try {
            return tool.execute(this);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toolName() {
        return "noop";
    }

    @Override
    public Map<String, Object> arguments() {
        return arguments;
    }

    @Override
    public String sessionId() {
        return "s_direct";
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
        return Path.of(".");
    }

    @Override
    public Path scratchDir() {
        return Path.of(".");
    }

    @Override
    public String traceId() {
        return "tr_direct";
    }

    @Override
    public Instant deadline() {
        return Instant.MAX;
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public void onCancel(Runnable action) {
        // never cancelled
    }

    @Override
    public void output(Stream stream, String chunk) {
        // no output
    }
}
