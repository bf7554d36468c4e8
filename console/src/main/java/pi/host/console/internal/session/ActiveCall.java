package pi.host.console.internal.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one call the console is running: the notifications that belong to it (its output, its cards)
 * in arrival order, then its end.
 */
final class ActiveCall {

    /** A notification of this call, or the end ({@code method} null). */
    record Event(String method, JsonNode params) {
        boolean isEnd() {
            return method == null;
        }
    }

    final String toolCallId;
    final String tool;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Set<String> endedCards = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean aborted = new AtomicBoolean();
    private volatile boolean ended;

    ActiveCall(String toolCallId, String tool) {
        this.toolCallId = toolCallId;
        this.tool = tool;
    }

    /** From the host's thread. */
    void deliver(String method, JsonNode params) {
        if ("permission.resolved".equals(method)) {
            endedCards.add(params.path("requestId").asText());
        }
        events.add(new Event(method, params));
    }

    /** The call's answer arrived. */
    void end() {
        ended = true;
        events.add(new Event(null, null));
    }

    Event next() throws InterruptedException {
        return events.take();
    }

    /** Whether the card is still waiting for this console's answer. */
    boolean cardOpen(String requestId) {
        return !ended && !endedCards.contains(requestId);
    }

    /** True the first time: the abort is to be sent. */
    boolean markAborted() {
        return aborted.compareAndSet(false, true);
    }

    boolean aborted() {
        return aborted.get();
    }
}
