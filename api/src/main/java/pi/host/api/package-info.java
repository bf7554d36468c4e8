/**
 * The tool SPI of pi-host.
 *
 * <p>A tool is an OSGi service of type {@link pi.host.api.ToolProvider}, registered with the
 * properties of {@link pi.host.api.Tool}. The host tracks these services, names and classifies
 * them, decides whether a call may run, and calls {@link pi.host.api.ToolProvider#execute}
 * through its one permission, timeout and audit path. A provider never sees a call the host has
 * not admitted.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("0.1.0")
package pi.host.api;
