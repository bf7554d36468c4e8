package pi.host.core.internal.approval;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;
import pi.host.core.internal.session.SessionListener;

/**
 * allow-session grants (spec §6, §10): per tool name and per session, in memory only. They follow
 * the session id and are never seen by another session; a restart forgets them.
 *
 * <p>A grant also remembers the definition of the tool it was given for (an MCP tool's definition
 * hash; null for tools whose definition cannot change under the user). When the definition differs at
 * the next call, the grant is dropped: the user allowed that description and schema, not whatever the
 * server offers later (the rug-pull guard).
 */
@Component(service = SessionGrants.class)
public final class SessionGrants implements SessionListener {

    /** What a session holds for one tool. */
    public enum Grant {
        /** No grant: the policy asks. */
        NONE,
        /** A grant for exactly this definition. */
        GRANTED,
        /** There was a grant, for another definition; it is gone now and the card says why. */
        DEFINITION_CHANGED
    }

    /** A definition hash of tools that have none (builtins, plugins), so that the map holds no nulls. */
    private static final String FIXED = "";

    private final ConcurrentHashMap<String, Map<String, String>> grants = new ConcurrentHashMap<>();

    public void grant(String sessionId, String toolName) {
        grant(sessionId, toolName, null);
    }

    /** Grants {@code toolName} to the session for the definition {@code definitionHash} (null: none). */
    public void grant(String sessionId, String toolName, String definitionHash) {
        grants.computeIfAbsent(sessionId, s -> new ConcurrentHashMap<>())
                .put(toolName, Objects.requireNonNullElse(definitionHash, FIXED));
    }

    public boolean has(String sessionId, String toolName) {
        return lookup(sessionId, toolName, null) == Grant.GRANTED;
    }

    /**
     * The session's grant of {@code toolName} for the definition {@code definitionHash}; a grant given for
     * another definition is dropped and reported as {@link Grant#DEFINITION_CHANGED}.
     */
    public Grant lookup(String sessionId, String toolName, String definitionHash) {
        Map<String, String> tools = grants.get(sessionId);
        String given = tools == null ? null : tools.get(toolName);
        if (given == null) {
            return Grant.NONE;
        }
        if (given.equals(Objects.requireNonNullElse(definitionHash, FIXED))) {
            return Grant.GRANTED;
        }
        tools.remove(toolName, given);
        return Grant.DEFINITION_CHANGED;
    }

    /** Drops every grant of a session (deleted). */
    @Override
    public void sessionDeleted(String sessionId) {
        grants.remove(sessionId);
    }
}
