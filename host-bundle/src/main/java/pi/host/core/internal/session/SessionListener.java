package pi.host.core.internal.session;

/**
 * Told when a session is deleted, so per-session state (grants, permits, provenance, tasks) goes with
 * it. Listeners are added with {@link SessionService#addListener} by the component that owns them,
 * when it activates, and removed when it deactivates.
 */
public interface SessionListener {
    void sessionDeleted(String sessionId);
}
