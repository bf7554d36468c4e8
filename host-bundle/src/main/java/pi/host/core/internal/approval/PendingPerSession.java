package pi.host.core.internal.approval;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many requests of one session wait for the user, up to a bound: the permission cards of
 * {@link ApprovalService} and, counted apart, the questions of {@code asktool}. Every waiting card
 * holds a thread and a place in the client's list; without a bound one session (a model asking in a
 * loop, a batch per request) could hold them without end.
 */
public final class PendingPerSession {

    /**
     * Cards one session may have waiting: a full batch of parallel calls (tools.executeBatch takes
     * 256) always fits, far more than a person answers at once.
     */
    public static final int MAX = 256;

    private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
    private final int max;

    public PendingPerSession(int max) {
        this.max = max;
    }

    public int max() {
        return max;
    }

    /** Takes a place for one more waiting request of the session; false when it has {@link #max} already. */
    public boolean take(String sessionId) {
        boolean[] taken = {false};
        counts.compute(key(sessionId), (k, n) -> {
            int waiting = n == null ? 0 : n;
            if (waiting >= max) {
                return n;
            }
            taken[0] = true;
            return waiting + 1;
        });
        return taken[0];
    }

    /** Gives back a place taken by {@link #take}. */
    public void give(String sessionId) {
        counts.computeIfPresent(key(sessionId), (k, n) -> n <= 1 ? null : n - 1);
    }

    /** Requests of the session waiting now (tests, diagnostics). */
    public int waiting(String sessionId) {
        return counts.getOrDefault(key(sessionId), 0);
    }

    private static String key(String sessionId) {
        return Objects.toString(sessionId, "");
    }
}
