package pi.host.plugins.internal;

import pi.host.api.ErrorCode;
import pi.host.api.PluginTool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.plugins.check.ToolSpec;

/**
 * A granted plugin's tool as the host sees it: description and schema from the descriptor, the
 * behaviour from the plugin's {@link PluginTool}. An action outside the declared ones (a missing one,
 * a case variant) is refused here with PERMISSION_DENIED before the plugin's code runs; the host has
 * already refused, in Plan and Goal, any action outside the plan-safe ones.
 */
final class PluginToolAdapter implements ToolProvider {

    private final String pluginId;
    private final ToolSpec spec;
    private final PluginTool tool;

    PluginToolAdapter(String pluginId, ToolSpec spec, PluginTool tool) {
        this.pluginId = pluginId;
        this.spec = spec;
        this.tool = tool;
    }

    @Override
    public String description() {
        return spec.description();
    }

    @Override
    public String inputSchema() {
        return spec.inputSchema();
    }

    @Override
    public ToolResult execute(ToolCall call) throws Exception {
        if (!spec.actions().isEmpty()) {
            Object action = call.arguments().get("action");
            if (!(action instanceof String) || !spec.actions().contains(action)) {
                return ToolResult.error(ErrorCode.PERMISSION_DENIED, (action == null ? "no action was given"
                        : "action " + quoted(action) + " is not declared") + "; " + spec.exposedName()
                        + " accepts only the actions " + spec.actions() + " (exact, case-sensitive)");
            }
        }
        Object result;
        try {
            result = tool.execute(call);
        } catch (ClassCastException e) {
            return malformed("a result of another type (" + e.getMessage() + ")");
        }
        if (!(result instanceof ToolResult)) {
            return malformed(result == null ? "no result (null)" : "a " + result.getClass().getName());
        }
        return (ToolResult) result;
    }

    private ToolResult malformed(String what) {
        return ToolResult.error(ErrorCode.TOOL_FAILED, "malformed result: plugin " + pluginId + " tool " + spec.name()
                + " returned " + what + " instead of a pi.host.api.ToolResult");
    }

    private static String quoted(Object action) {
        return action instanceof String ? "'" + action + "'" : String.valueOf(action);
    }
}
