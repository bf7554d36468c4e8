package pi.host.core.internal.session;

/** Told when a session is deleted, so per-session state (grants, permits, provenance, tasks) goes with it. */
public interface SessionListener {
    void sessionDeleted(String sessionId);
}
