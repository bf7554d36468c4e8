/**
 * Background tasks (spec §5 {@code runInBackground}): the tools bundle that runs them implements
 * {@link pi.host.api.background.BackgroundTasks}; the host serves {@code background.list/read/stop/remove}
 * over its RPC from it, tells it when a session is deleted or the host stops, and publishes the
 * {@code background.updated} notifications it reports through {@link pi.host.api.background.BackgroundHost}.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("0.1.0")
package pi.host.api.background;
