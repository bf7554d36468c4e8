package pi.host.core.internal.approval;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;
import pi.host.core.internal.session.SessionListener;

/**
 * allow-session grants (spec §4a, §6, §10): per session and tool name, in memory only, each with the
 * {@link GrantScope} its card showed. A grant from an in-root card covers the tool inside the roots;
 * a grant from an outside-path card covers that tool on that canonical location only. They follow the
 * session id, are never seen by another session, and a restart forgets them.
 */
@Component(service = SessionGrants.class)
public final class SessionGrants implements SessionListener {

    /** What a session holds for one tool: the in-root scope and the granted locations. */
    private static final class Held {
        volatile boolean inRoots;
        final Set<GrantScope.Area> paths = ConcurrentHashMap.newKeySet();
    }

    private final ConcurrentHashMap<String, Map<String, Held>> grants = new ConcurrentHashMap<>();

    /** Records an allow-session answer on a card that showed {@code scope}. */
    public void grant(String sessionId, GrantScope scope) {
        Held held = grants.computeIfAbsent(sessionId, s -> new ConcurrentHashMap<>())
                .computeIfAbsent(scope.toolName(), t -> new Held());
        held.paths.addAll(scope.paths());
        if (scope.inRoots()) {
            held.inRoots = true;
        }
    }

    /** True when the session's grants for the tool cover every part of {@code scope}. */
    public boolean covers(String sessionId, GrantScope scope) {
        Map<String, Held> byTool = grants.get(sessionId);
        Held held = byTool == null ? null : byTool.get(scope.toolName());
        if (held == null || scope.inRoots() && !held.inRoots) {
            return false;
        }
        for (GrantScope.Area needed : scope.paths()) {
            if (!coveredBy(held, needed)) {
                return false;
            }
        }
        return true;
    }

    /** {@link #covers} for a call inside the roots (or without paths), without building its scope. */
    public boolean coversRoots(String sessionId, String toolName) {
        Map<String, Held> byTool = grants.get(sessionId);
        Held held = byTool == null ? null : byTool.get(toolName);
        return held != null && held.inRoots;
    }

    private static boolean coveredBy(Held held, GrantScope.Area needed) {
        for (GrantScope.Area granted : held.paths) {
            // a directory grant covers a file or a directory below it; a file grant only that file
            if (granted.covers(needed.path()) && (!needed.below() || granted.below())) {
                return true;
            }
        }
        return false;
    }

    /** Drops every grant of a session (deleted). */
    @Override
    public void sessionDeleted(String sessionId) {
        grants.remove(sessionId);
    }
}
