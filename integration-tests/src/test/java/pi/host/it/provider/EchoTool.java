package pi.host.it.provider;

import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;

/** The tool of the throw-away provider bundles: returns its {@code text} argument. */
public final class EchoTool implements ToolProvider {

    @Override
    public String description() {
        return "Returns its text argument unchanged (integration-test provider).";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],"
                + "\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return ToolResult.ok(String.valueOf(call.arguments().get("text")));
    }
}
