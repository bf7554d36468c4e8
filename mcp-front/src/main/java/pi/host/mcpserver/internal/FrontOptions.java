package pi.host.mcpserver.internal;

import java.util.function.Function;

/**
 * How {@code pi-host mcp} was started, as the launcher's {@code McpCommand} put it into framework
 * properties (it has checked every combination already; these are read, not re-validated).
 *
 * @param workspace the session's workspace root, or null for a temporary session
 * @param permissionMode ask, accept-edits or auto, or null to inherit the host's default
 * @param elicitation true when cards go to the MCP client (elicitation), false when a JSON-RPC
 *     client on stdio answers them (rpc)
 * @param http {@code HOST:PORT} of the streamable HTTP endpoint, or null for stdio
 * @param tokenFile the file holding the bearer token, or null to generate one
 * @param allowRemote whether clients from non-loopback addresses are served
 */
public record FrontOptions(String workspace, String permissionMode, boolean elicitation, String http,
        String tokenFile, boolean allowRemote) {

    /** Framework property that turns the front on. */
    public static final String ENABLED = "pi.host.mcp";

    /** The options, or null when the host was not started as an MCP server. */
    public static FrontOptions from(Function<String, String> properties) {
        if (!"true".equals(properties.apply(ENABLED))) {
            return null;
        }
        return new FrontOptions(properties.apply("pi.host.mcp.workspace"),
                properties.apply("pi.host.mcp.permissionMode"),
                !"rpc".equals(properties.apply("pi.host.mcp.approver")),
                properties.apply("pi.host.mcp.http"),
                properties.apply("pi.host.mcp.tokenFile"),
                "true".equals(properties.apply("pi.host.mcp.allowRemote")));
    }

    public boolean stdio() {
        return http == null;
    }
}
