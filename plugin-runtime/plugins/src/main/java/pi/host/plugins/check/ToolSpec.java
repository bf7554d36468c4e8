package pi.host.plugins.check;

import java.util.List;

/**
 * One agent tool of a valid descriptor, with the host's defaults applied.
 *
 * @param name the tool's name inside its plugin
 * @param exposedName the name the model sees, {@code plugin_<pluginIdSafe>_<name>}
 * @param description what the tool does, as the model reads it
 * @param className the class implementing {@link pi.host.api.PluginTool}
 * @param risk {@code low}, {@code medium} or {@code high}: the declared risk, or medium when none valid was declared
 * @param riskDeclared false when medium was applied because the descriptor declared no valid risk
 * @param actions the declared actions (empty when the tool has none)
 * @param planSafeActions the actions allowed in Plan and Goal (empty hides the tool there)
 * @param inputSchema the JSON Schema of the arguments, as JSON text
 * @param timeoutMs the budget of one call (the host's default when none was declared)
 * @param summary one line for the on-demand catalog (empty when none)
 */
public record ToolSpec(String name, String exposedName, String description, String className, String risk,
        boolean riskDeclared, List<String> actions, List<String> planSafeActions, String inputSchema, long timeoutMs,
        String summary) {

    public ToolSpec {
        actions = List.copyOf(actions);
        planSafeActions = List.copyOf(planSafeActions);
    }
}
