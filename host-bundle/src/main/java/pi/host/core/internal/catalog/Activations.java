package pi.host.core.internal.catalog;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;
import pi.host.core.internal.session.SessionListener;

/**
 * Which deferred tools are active in each session for the current prompt (spec §2.1): ToolSearch and
 * a composer MCP selection add to it, {@code prompt.begin} clears it and restores only what the
 * prompt's context proves. In memory only; a deleted session's set goes with it.
 */
@Component(service = Activations.class)
public final class Activations implements SessionListener {

    private final ConcurrentHashMap<String, Set<String>> active = new ConcurrentHashMap<>();

    public boolean isActive(String sessionId, String toolName) {
        Set<String> names = active.get(sessionId);
        return names != null && names.contains(toolName);
    }

    public void activate(String sessionId, Collection<String> toolNames) {
        active.computeIfAbsent(sessionId, s -> ConcurrentHashMap.newKeySet()).addAll(toolNames);
    }

    /** Replaces the session's set (a new prompt). */
    public void reset(String sessionId, Collection<String> toolNames) {
        Set<String> fresh = ConcurrentHashMap.newKeySet();
        fresh.addAll(toolNames);
        active.put(sessionId, fresh);
    }

    public Set<String> active(String sessionId) {
        Set<String> names = active.get(sessionId);
        return names == null ? Set.of() : Set.copyOf(names);
    }

    @Override
    public void sessionDeleted(String sessionId) {
        active.remove(sessionId);
    }
}
