package pi.host.it.provider;

import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;

/** A plugin tool with actions: answers which action ran (integration-test provider). */
public final class ActionTool implements ToolProvider {

    @Override
    public String description() {
        return "Runs the named action (integration-test provider).";
    }

    @Override
    public String inputSchema() {
        // the action is optional here so that the host's plan-safe check, not the schema, refuses a missing one
        return "{\"type\":\"object\",\"properties\":{\"action\":{\"type\":\"string\"}},\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        return ToolResult.ok("ran " + call.arguments().get("action"));
    }
}
