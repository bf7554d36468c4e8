/**
 * What the host provides to its own builtin tools and to nothing else: the session's provenance
 * (which content and which lines a session was shown), review snapshots of workspace mutations,
 * the Edit loop guard, the resolution of a second path argument, race-free file access below a
 * pinned directory ({@link pi.host.spi.PinnedFiles}, {@link pi.host.spi.AtomicWrite}; 0.4.0 added
 * them and made AtomicWrite work on pinned directories), and background tasks (the tools
 * bundle implements {@link pi.host.spi.BackgroundTasks}; the host serves {@code background.*} from it
 * and implements {@link pi.host.spi.BackgroundHost}), and the plugin runtime's side of plugin grants (the
 * host implements {@link pi.host.spi.PluginHost}, the {@code pi.host.plugins} bundle implements
 * {@link pi.host.spi.PluginRuntime}; 0.2.0 added them).
 *
 * <p>The export carries the mandatory attribute {@code pi.host.spi=builtin}: only a bundle that
 * asks for it by name ({@code pi.host.tools} does, in its bnd.bnd) is wired to this package, so
 * an ordinary plugin importing {@code pi.host.spi} does not resolve. This is a guard against
 * mistakes, not a sandbox: plugins are trusted code once installed.
 */
@org.osgi.annotation.bundle.Export(attribute = {"pi.host.spi=builtin", "mandatory:=pi.host.spi"})
@org.osgi.annotation.versioning.Version("0.4.0")
package pi.host.spi;
