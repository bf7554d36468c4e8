/**
 * The host's JSON-RPC endpoint as an OSGi service, for the in-process clients: the stdio server,
 * the terminal console and in-container tests all speak the same protocol through it.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("0.2.0")
package pi.host.core.rpc;
