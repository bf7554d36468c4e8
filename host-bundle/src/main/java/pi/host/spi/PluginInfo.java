package pi.host.spi;

import java.util.List;

/**
 * One plugin as {@code plugins.list} shows it.
 *
 * @param id the plugin id (the bundle's symbolic name, else the file name, when the descriptor declares no
 *     usable id)
 * @param name the descriptor's name, or null
 * @param version the descriptor's version, or null
 * @param bundleId the plugin bundle, or -1 for a drop-in refused before it was installed
 * @param symbolicName the bundle's symbolic name (null when the jar has none that can be read)
 * @param file the jar's file name in the drop-in folder, or null for a bundle installed otherwise
 * @param state {@code invalid}, {@code awaiting-grant}, {@code registered} or {@code failed}
 * @param granted whether the user granted {@code agent.tool.register} (false when it cannot be read)
 * @param problems why it is invalid or failed (empty otherwise)
 * @param warnings what is wrong but does not keep it from loading
 * @param tools its agent tools (empty when the descriptor is invalid)
 */
public record PluginInfo(String id, String name, String version, long bundleId, String symbolicName, String file,
        String state, boolean granted, List<Problem> problems, List<Problem> warnings, List<ToolInfo> tools) {

    public PluginInfo {
        problems = List.copyOf(problems);
        warnings = List.copyOf(warnings);
        tools = List.copyOf(tools);
    }

    /** One problem: where, what, and how to fix it. */
    public record Problem(String where, String what, String fix) {
    }

    /** One agent tool of the plugin. */
    public record ToolInfo(String name, String exposedName, String risk, List<String> actions,
            List<String> planSafeActions) {

        public ToolInfo {
            actions = List.copyOf(actions);
            planSafeActions = List.copyOf(planSafeActions);
        }
    }
}
