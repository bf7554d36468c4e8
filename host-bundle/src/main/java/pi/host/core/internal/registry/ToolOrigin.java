package pi.host.core.internal.registry;

/** Where a registered tool comes from; it decides the exposed name and how far its declarations are trusted. */
public enum ToolOrigin {
    /** Shipped in the builtin-tools bundle; keeps its name. */
    BUILTIN,
    /** Contributed by a plugin bundle: {@code plugin_<pluginIdSafe>_<tool>}. */
    PLUGIN,
    /** Bridged from an MCP server: {@code mcp_<serverId>_<tool>}, always medium risk. */
    MCP
}
