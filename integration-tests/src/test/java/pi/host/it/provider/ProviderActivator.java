package pi.host.it.provider;

import java.util.Dictionary;
import java.util.Hashtable;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;

/**
 * Registers one tool described by the bundle's manifest headers: its name, and optionally its risk,
 * actions, plan-safe actions and MCP server. A plain activator rather than a DS component keeps the
 * throw-away bundles to a few classes and a manifest (no SCR metadata to generate); one class
 * serves every test bundle through the headers.
 */
public final class ProviderActivator implements BundleActivator {

    /** Manifest header naming the tool this bundle registers. */
    public static final String TOOL_NAME_HEADER = "Pi-It-Tool-Name";
    /** Optional: the declared risk (default low). */
    public static final String RISK_HEADER = "Pi-It-Tool-Risk";
    /** Optional: comma-separated actions; the bundle then registers an {@link ActionTool}. */
    public static final String ACTIONS_HEADER = "Pi-It-Tool-Actions";
    /** Optional: comma-separated plan-safe actions. */
    public static final String PLAN_SAFE_HEADER = "Pi-It-Tool-PlanSafe";
    /** Optional: registers the tool as an MCP server's (only honoured for the distribution's MCP bridge). */
    public static final String MCP_SERVER_HEADER = "Pi-It-Mcp-Server";
    /** Optional: registers the tool as a plugin's (only honoured for the distribution's plugin runtime). */
    public static final String PLUGIN_ID_HEADER = "Pi-It-Plugin-Id";

    @Override
    public void start(BundleContext context) {
        Dictionary<String, String> headers = context.getBundle().getHeaders();
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Tool.NAME, headers.get(TOOL_NAME_HEADER));
        properties.put(Tool.RISK, headers.get(RISK_HEADER) == null ? "low" : headers.get(RISK_HEADER));
        String actions = headers.get(ACTIONS_HEADER);
        if (actions != null) {
            properties.put(Tool.ACTIONS, actions.split(","));
        }
        String planSafe = headers.get(PLAN_SAFE_HEADER);
        if (planSafe != null) {
            properties.put(Tool.PLAN_SAFE_ACTIONS, planSafe.split(","));
        }
        String server = headers.get(MCP_SERVER_HEADER);
        if (server != null) {
            properties.put("pi.mcp.server", server);
            // the registry takes MCP tools only with the definition hash the rug-pull guard compares
            properties.put("pi.mcp.definitionHash", "sha256:it-stand-in-" + headers.get(TOOL_NAME_HEADER));
        }
        String pluginId = headers.get(PLUGIN_ID_HEADER);
        if (pluginId != null) {
            properties.put("pi.plugin.id", pluginId);
        }
        ToolProvider tool = actions != null ? new ActionTool() : new EchoTool();
        context.registerService(ToolProvider.class, tool, properties);
    }

    @Override
    public void stop(BundleContext context) {
        // nothing to do: the framework unregisters a stopping bundle's services, which is the path under test
    }
}
