package pi.host.spi;

import org.osgi.annotation.versioning.ProviderType;

/** What the host offers the bundle that runs background tasks. */
@ProviderType
public interface BackgroundHost {

    /** True while the session exists (a spawn into a deleted or unknown session is refused). */
    boolean sessionExists(String sessionId);

    /** Publishes {@code background.updated} for the task to every client. */
    void updated(TaskInfo task);
}
