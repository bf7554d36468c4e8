package pi.host.plugins.check;

import java.util.List;

/**
 * A plugin's descriptor after validation: only a descriptor without errors becomes one.
 *
 * @param id the plugin id ({@code [a-z][a-z0-9.-]{0,47}})
 * @param name the human name
 * @param version the declared version (equal to the bundle's, qualifier aside)
 * @param tools the agent tools, in the descriptor's order
 */
public record PluginDescriptor(String id, String name, String version, List<ToolSpec> tools) {

    public PluginDescriptor {
        tools = List.copyOf(tools);
    }

    /** The id with every character outside {@code [A-Za-z0-9]} replaced by {@code _}. */
    public static String safeId(String id) {
        return id.replaceAll("[^A-Za-z0-9]", "_");
    }

    /** The name the model sees for tool {@code tool} of plugin {@code id}. */
    public static String exposedName(String id, String tool) {
        return "plugin_" + safeId(id) + "_" + tool;
    }

    /** The host's internal full name, {@code plugin.<id>.<tool>}. */
    public static String internalName(String id, String tool) {
        return "plugin." + id + "." + tool;
    }
}
