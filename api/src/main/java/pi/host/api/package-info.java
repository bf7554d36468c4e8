/**
 * The tool SPI of pi-host.
 *
 * <p>A tool is an OSGi service of type {@link pi.host.api.ToolProvider}, registered with the
 * properties of {@link pi.host.api.Tool}. The host tracks these services, names and classifies
 * them, decides whether a call may run, and calls {@link pi.host.api.ToolProvider#execute}
 * through its one permission, timeout and audit path. A provider never sees a call the host has
 * not admitted.
 *
 * <p>A plugin bundle does not register services itself: it declares its tools in a JSON descriptor
 * (manifest header {@code Pi-Plugin}) and implements each as a {@link pi.host.api.PluginTool}; the
 * plugin runtime registers them once the user granted the plugin (0.2.0 added {@code PluginTool};
 * 0.3.0 added {@code ErrorCode.CARD_LIMIT}; 0.4.0 the worktree codes and {@code ResolvedPath.Root.VISUALIZATION}).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("0.4.0")
package pi.host.api;
