package pi.host.core.internal.approval;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;
import pi.host.core.internal.session.SessionListener;

/**
 * allow-session grants (spec §6, §10): per tool name and per session, in memory only. They follow
 * the session id and are never seen by another session; a restart forgets them.
 */
@Component(service = SessionGrants.class)
public final class SessionGrants implements SessionListener {

    private final ConcurrentHashMap<String, Set<String>> grants = new ConcurrentHashMap<>();

    public void grant(String sessionId, String toolName) {
        grants.computeIfAbsent(sessionId, s -> ConcurrentHashMap.newKeySet()).add(toolName);
    }

    public boolean has(String sessionId, String toolName) {
        Set<String> tools = grants.get(sessionId);
        return tools != null && tools.contains(toolName);
    }

    /** Drops every grant of a session (deleted). */
    @Override
    public void sessionDeleted(String sessionId) {
        grants.remove(sessionId);
    }
}
