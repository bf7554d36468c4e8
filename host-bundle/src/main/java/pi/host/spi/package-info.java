/**
 * What the host provides to its own builtin tools and to nothing else: the session's provenance
 * (which content and which lines a session was shown), review snapshots of workspace mutations,
 * the Edit loop guard, race-free file access below a pinned directory ({@link pi.host.spi.PinnedFiles},
 * {@link pi.host.spi.AtomicWrite} on pinned directories), background tasks (the tools bundle implements
 * {@link pi.host.spi.BackgroundTasks}; the host serves {@code background.*} from it and implements
 * {@link pi.host.spi.BackgroundHost}), the plugin runtime's side of plugin grants (the host implements
 * {@link pi.host.spi.PluginHost}, the {@code pi.host.plugins} bundle implements
 * {@link pi.host.spi.PluginRuntime}; 0.2.0 added them; 0.4.0 added {@code PluginInfo.file}), how the other host
 * bundles start a program ({@link pi.host.spi.ChildProcesses}, implemented by the tools bundle; 0.5.0 added it),
 * the MCP bridge's side of {@code mcp.list} (the host implements {@link pi.host.spi.McpHost}, the
 * {@code pi.host.mcp} bundle implements {@link pi.host.spi.McpRuntime}) with the login-shell PATH the tools bundle
 * probes ({@link pi.host.spi.LoginShellPath}; 0.6.0 added them), and the builtins' side of the tool contract:
 * the per-tool facts a builtin declares ({@link pi.host.spi.Builtin}, {@link pi.host.spi.ToolKind}), the
 * two phases ({@link pi.host.spi.PreparedTool} names every path a call will touch in an
 * {@link pi.host.spi.Invocation}; the host's calls hand them back resolved, {@link pi.host.spi.PreparedCall})
 * and the limits of a walk ({@link pi.host.spi.WalkLimits}); a builtin whose presence depends on the session
 * ({@link pi.host.spi.OfferedTool}) and the Jev bundle's view of its settings and key
 * ({@link pi.host.spi.JevSettings}, implemented by the host; 1.1.0 added both and {@code ToolKind.IMAGES}).
 *
 * <p>1.3.0 added {@link pi.host.spi.QuietWork} (background work that waits for the tool calls to pause: the
 * login-shell probe).
 *
 * <p>1.2.0 added {@link pi.host.spi.AsyncBody} (a body that ends on its own thread: the MCP bridge's calls).
 *
 * <p>1.1.0 added {@link pi.host.spi.CallRoots} (the visualization dir and an isolated session's command
 * variables on the host's calls) and {@link pi.host.spi.ShellCommands} (the user's shell for the host's own
 * commands, implemented by the tools bundle).
 *
 * <p>1.0.0 added those and the pinned-directory access and removed {@code SecondPaths} (Edit's MV
 * destination is a declared path now): a removal, hence the major version.
 *
 * <p>The export carries the mandatory attribute {@code pi.host.spi=builtin}: only a bundle that
 * asks for it by name ({@code pi.host.tools} does, in its bnd.bnd) is wired to this package, so
 * an ordinary plugin importing {@code pi.host.spi} does not resolve. This is a guard against
 * mistakes, not the mechanism: any manifest can state the attribute. What keeps every bundle that is
 * not the host's off this package is the host's wiring guard (origin from the launcher's record).
 */
@org.osgi.annotation.bundle.Export(attribute = {"pi.host.spi=builtin", "mandatory:=pi.host.spi"})
@org.osgi.annotation.versioning.Version("1.3.0")
package pi.host.spi;
