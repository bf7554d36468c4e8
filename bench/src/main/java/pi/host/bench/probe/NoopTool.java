package pi.host.bench.probe;

import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolResult;

/**
 * The benchmarked tool, a plugin tool like any other (its description and schema, one string
 * argument so the host's validation has something to check, are in the bench plugin's descriptor,
 * EmbeddedHost.BENCH_DESCRIPTOR): does nothing, returns a one-line result.
 */
public final class NoopTool implements PluginTool {

    @Override
    public ToolResult execute(ToolCall call) {
        return ToolResult.ok("ok");
    }
}
