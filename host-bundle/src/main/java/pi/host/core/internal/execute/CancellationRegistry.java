package pi.host.core.internal.execute;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import pi.host.core.internal.session.SessionListener;

/**
 * Cancellation records of in-flight calls, keyed by session and call id and carrying the tool name
 * (spec §3). An abort that arrives before its call (the two requests race on the wire) leaves a
 * short-lived record that cancels the call when it registers, but only a call of the same tool:
 * another tool reusing the id never inherits it.
 */
@Component(service = CancellationRegistry.class)
public final class CancellationRegistry implements SessionListener {

    private static final int MAX_EARLY_ABORTS = 4096;
    /** The reason a call is cancelled with when its session is deleted. */
    public static final String SESSION_DELETED = "session deleted";

    private final Map<String, CallCancellation> active = new ConcurrentHashMap<>();
    /** Calls of a batch that were received but have not started: an abort can name them by id alone. */
    private final Map<String, String> queued = new ConcurrentHashMap<>();
    private final Map<String, String> earlyAborts = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MAX_EARLY_ABORTS;
        }
    };

    private static String key(String sessionId, String toolCallId) {
        return sessionId + '\u0000' + toolCallId;
    }

    /**
     * Registers a call; empty when a call with this id is already in flight in the session. The
     * returned record is already cancelled when an abort for this tool and id came first.
     */
    public Optional<CallCancellation> register(String sessionId, String toolCallId, String toolName) {
        CallCancellation c = new CallCancellation(toolName);
        String key = key(sessionId, toolCallId); // built once: this runs on every call
        if (active.putIfAbsent(key, c) != null) {
            return Optional.empty();
        }
        String early;
        synchronized (earlyAborts) {
            early = earlyAborts.get(key);
            if (toolName.equals(early)) {
                earlyAborts.remove(key);
            }
        }
        if (toolName.equals(early)) {
            c.cancel("aborted");
        }
        return Optional.of(c);
    }

    /** Announces a call that will start later (a later call of a sequential batch). */
    public void expect(String sessionId, String toolCallId, String toolName) {
        queued.put(key(sessionId, toolCallId), toolName);
    }

    /** Forgets an announced call (it started, or its batch ended). */
    public void unexpect(String sessionId, String toolCallId) {
        queued.remove(key(sessionId, toolCallId));
    }

    public void unregister(String sessionId, String toolCallId, CallCancellation c) {
        active.remove(key(sessionId, toolCallId), c);
    }

    /**
     * Aborts the in-flight call with this id (only if it runs {@code toolName}, when given). A call
     * of a batch that has not started yet is cancelled before it starts (stop skips unstarted calls).
     * With no such call and a tool name given, remembers the abort for a call still on its way.
     *
     * @return true when an in-flight or queued call was cancelled
     */
    public boolean abort(String sessionId, String toolCallId, String toolName) {
        CallCancellation c = active.get(key(sessionId, toolCallId));
        if (c != null) {
            if (toolName != null && !toolName.equals(c.toolName())) {
                return false;
            }
            c.cancel("aborted");
            return true;
        }
        return abortNotRunning(sessionId, toolCallId, toolName);
    }

    /**
     * {@link #abort} when that cannot block: null when a call with this id and tool is running,
     * since cancelling it runs its cancel actions (a plugin's among them), which may block.
     */
    public Boolean abortUnlessRunning(String sessionId, String toolCallId, String toolName) {
        CallCancellation c = active.get(key(sessionId, toolCallId));
        if (c != null) {
            return toolName != null && !toolName.equals(c.toolName()) ? Boolean.FALSE : null;
        }
        return abortNotRunning(sessionId, toolCallId, toolName);
    }

    private boolean abortNotRunning(String sessionId, String toolCallId, String toolName) {
        String queuedTool = queued.get(key(sessionId, toolCallId));
        boolean isQueued = queuedTool != null && (toolName == null || toolName.equals(queuedTool));
        String remembered = isQueued ? queuedTool : toolName;
        if (remembered != null) {
            synchronized (earlyAborts) {
                earlyAborts.put(key(sessionId, toolCallId), remembered);
            }
        }
        return isQueued;
    }

    @Override
    public void sessionDeleted(String sessionId) {
        cancelAll(sessionId, SESSION_DELETED);
    }

    @Deactivate
    void deactivate() {
        cancelAll(null, "shutdown");
    }

    /** Cancels every in-flight call of a session (session deleted) or of all sessions (null). */
    public void cancelAll(String sessionId, String reason) {
        String prefix = sessionId == null ? null : sessionId + '\u0000';
        active.forEach((k, c) -> {
            if (prefix == null || k.startsWith(prefix)) {
                c.cancel(reason);
            }
        });
    }
}
