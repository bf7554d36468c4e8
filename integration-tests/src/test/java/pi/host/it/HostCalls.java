package pi.host.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The RPC calls the plugin tests make over and over: sessions, tool calls, grants and plugin records. */
public final class HostCalls {

    public static final String TOOL_REGISTER = "agent.tool.register";

    private final RpcClient rpc;

    public HostCalls(RpcClient rpc) {
        this.rpc = rpc;
    }

    public RpcClient rpc() {
        return rpc;
    }

    /** A new session on a fresh project folder. */
    public String session(String mode, String permissionMode) {
        ObjectNode p = RpcClient.params().put("projectRoot", ItFolders.fresh("proj").toString())
                .put("mode", mode).put("permissionMode", permissionMode);
        return rpc.call("session.create", p).get("sessionId").asText();
    }

    /** Runs a call; plugin and MCP tools are on-demand, so they are activated first with ToolSearch. */
    public JsonNode execute(String session, String callId, String tool, ObjectNode args) {
        if (tool.startsWith("plugin_") || tool.startsWith("mcp_")) {
            activate(session, tool);
        }
        return call(session, callId, tool, args);
    }

    /** Runs a call as it is, without activating anything. */
    public JsonNode call(String session, String callId, String tool, ObjectNode args) {
        return rpc.call("tools.execute", request(session, callId, tool, args));
    }

    /** The params of a tools.execute request (turn t1). */
    public static ObjectNode request(String session, String callId, String tool, ObjectNode args) {
        ObjectNode p = RpcClient.params().put("sessionId", session).put("turnId", "t1").put("toolCallId", callId)
                .put("name", tool);
        p.set("arguments", args);
        return p;
    }

    /** Activates an on-demand tool for the session's current prompt. */
    public JsonNode activate(String session, String tool) {
        return call(session, "search-" + tool + "-" + System.nanoTime(), "ToolSearch",
                RpcClient.params().put("query", tool));
    }

    /** Grants the plugin {@code agent.tool.register}; returns the plugin's record after the grant. */
    public JsonNode grant(String pluginId) {
        return rpc.call("plugins.grant", RpcClient.params().put("pluginId", pluginId).put("capability", TOOL_REGISTER))
                .get("plugin");
    }

    /** Revokes the plugin's {@code agent.tool.register}. */
    public JsonNode revoke(String pluginId) {
        return rpc.call("plugins.revoke", RpcClient.params().put("pluginId", pluginId).put("capability", TOOL_REGISTER));
    }

    /**
     * Installs and starts a plugin bundle written by {@link ProviderBundles#plugin}, waits until the
     * runtime lists it, grants it and waits for its tool {@code exposed}; returns the bundle.
     */
    public org.osgi.framework.Bundle installAndGrant(org.osgi.framework.BundleContext context, String symbolicName,
            String pluginId, String exposed) throws org.osgi.framework.BundleException {
        // installed only: the runtime, never the installer, decides what of a plugin runs (nothing starts it)
        org.osgi.framework.Bundle b = context.installBundle(ProviderBundles.location(symbolicName));
        awaitPlugin(pluginId, "awaiting-grant");
        JsonNode granted = grant(pluginId);
        if (!"registered".equals(granted.path("state").asText())) {
            throw new AssertionError(pluginId + " was not registered after its grant: " + granted);
        }
        awaitAdded(exposed);
        return b;
    }

    /** Cleanup: revokes the plugin's grant if there is one, whatever the answer (an unknown plugin is an error). */
    public void forget(String pluginId) {
        rpc.awaitResponse(rpc.send("plugins.revoke", RpcClient.params().put("pluginId", pluginId)
                .put("capability", TOOL_REGISTER)));
    }

    /** Waits until plugins.changed reports {@code state} for the plugin, then returns its plugins.list record. */
    public JsonNode awaitPlugin(String pluginId, String state) {
        rpc.awaitNotification("plugins.changed", pluginId + " " + state,
                p -> pluginId.equals(p.path("pluginId").asText()) && state.equals(p.path("state").asText()));
        return plugin(pluginId);
    }

    /** The plugin's record in plugins.list, or null. */
    public JsonNode plugin(String pluginId) {
        for (JsonNode p : rpc.call("plugins.list").get("plugins")) {
            if (pluginId.equals(p.get("id").asText())) {
                return p;
            }
        }
        return null;
    }

    /** Waits for tools.changed adding {@code exposed}. */
    public void awaitAdded(String exposed) {
        rpc.awaitNotification("tools.changed", "adding " + exposed, p -> RpcClient.contains(p.path("added"), exposed));
    }

    /** Waits for tools.changed removing {@code exposed}. */
    public void awaitRemoved(String exposed) {
        rpc.awaitNotification("tools.changed", "removing " + exposed,
                p -> RpcClient.contains(p.path("removed"), exposed));
    }

    /** True when tools.list of the session names {@code exposed} anywhere (schemas or on-demand catalog). */
    public boolean listed(String session, String exposed) {
        return rpc.call("tools.list", RpcClient.params().put("sessionId", session)).toString()
                .contains("\"" + exposed + "\"");
    }

    public static ObjectNode action(String action) {
        return RpcClient.params().put("action", action);
    }

    /** The first text block of a ToolResult. */
    public static String text(JsonNode result) {
        return result.get("content").get(0).get("text").asText();
    }
}
