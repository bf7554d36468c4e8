package pi.host.bench.probe;

import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;

/** The benchmarked tool: validates nothing itself, does nothing, returns a one-line result. */
public final class NoopTool implements ToolProvider {

    @Override
    public String description() {
        return "Does nothing (benchmark probe).";
    }

    @Override
    public String inputSchema() {
        // one string argument, so the host's JSON Schema validation has something to check
        return "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],"
                + "\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return ToolResult.ok("ok");
    }
}
