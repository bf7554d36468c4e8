package pi.host.spi;

import org.osgi.annotation.versioning.ProviderType;

/**
 * What the host offers the plugin runtime ({@code pi.host.plugins}): the user's persisted grants and
 * the {@code plugins.changed} notification. The host implements it.
 */
@ProviderType
public interface PluginHost {

    /** The capability that lets a plugin's agent tools be registered. */
    String TOOL_REGISTER = "agent.tool.register";

    /**
     * Whether the user granted {@code capability} to the plugin {@code pluginId}.
     *
     * @throws GrantsUnavailableException when the grants cannot be read; the caller must then treat
     *     the plugin as not granted (fail closed)
     */
    boolean granted(String pluginId, String capability) throws GrantsUnavailableException;

    /** Publishes {@code plugins.changed}: the plugin's record changed ({@code state} is its new state, or {@code removed}). */
    void pluginsChanged(String pluginId, long bundleId, String state);
}
