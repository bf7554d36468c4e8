/**
 * The host's JSON-RPC endpoint as an OSGi service, for the in-process clients: the stdio server,
 * the terminal console, the MCP front and in-container tests all speak the same protocol through it
 * ({@link pi.host.core.rpc.HostClient} is the client side the console and the MCP front share).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("0.3.0")
package pi.host.core.rpc;
