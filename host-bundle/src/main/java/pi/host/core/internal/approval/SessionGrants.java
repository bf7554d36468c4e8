package pi.host.core.internal.approval;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;
import pi.host.core.internal.session.SessionListener;

/**
 * allow-session grants (spec §4a, §6, §10): per session and tool name, in memory only, each with the
 * {@link GrantScope} its card showed. A grant from an in-root card covers the tool inside the roots;
 * a grant from an outside-path card covers that tool on that canonical location only. They follow the
 * session id, are never seen by another session, and a restart forgets them.
 *
 * <p>A grant also remembers the definition of the tool it was given for (an MCP tool's definition
 * hash; none for tools whose definition cannot change under the user). When the definition differs at
 * the next call, the grant is dropped: the user allowed that description and schema, not whatever the
 * server offers later (the rug-pull guard).
 */
@Component(service = SessionGrants.class)
public final class SessionGrants implements SessionListener {

    /** The definition of tools that have none (builtins, plugins), so that no grant holds a null. */
    private static final String FIXED = "";

    /** What a session holds for one tool: the definition it was given for, the in-root scope, the locations. */
    private static final class Held {
        final String definition;
        volatile boolean inRoots;
        final Set<GrantScope.Area> paths = ConcurrentHashMap.newKeySet();

        Held(String definition) {
            this.definition = definition;
        }
    }

    private final ConcurrentHashMap<String, Map<String, Held>> grants = new ConcurrentHashMap<>();

    /** Records an allow-session answer on a card that showed {@code scope}, for a tool without a definition hash. */
    public void grant(String sessionId, GrantScope scope) {
        grant(sessionId, scope, null);
    }

    /**
     * Records an allow-session answer on a card that showed {@code scope}, for the tool's definition
     * {@code definitionHash} (null: none); what was granted for another definition is replaced.
     */
    public void grant(String sessionId, GrantScope scope, String definitionHash) {
        String definition = Objects.requireNonNullElse(definitionHash, FIXED);
        Held held = grants.computeIfAbsent(sessionId, s -> new ConcurrentHashMap<>())
                .compute(scope.toolName(), (t, old) -> old != null && old.definition.equals(definition) ? old
                        : new Held(definition));
        held.paths.addAll(scope.paths());
        if (scope.inRoots()) {
            held.inRoots = true;
        }
    }

    /**
     * Drops the session's grant of {@code toolName} when it was given for another definition than
     * {@code definitionHash} (null: none); true when it did, so the card can say the definition changed.
     */
    public boolean dropIfRedefined(String sessionId, String toolName, String definitionHash) {
        Map<String, Held> byTool = grants.get(sessionId);
        Held held = byTool == null ? null : byTool.get(toolName);
        if (held == null || held.definition.equals(Objects.requireNonNullElse(definitionHash, FIXED))) {
            return false;
        }
        return byTool.remove(toolName, held);
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
