package pi.host.core.internal.control;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.approval.PendingPerSession;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.info.ShutdownParticipant;
import pi.host.core.internal.json.ErrorText;

/**
 * The questions of {@code asktool} (spec §3): {@code ask.request} goes to the client, the answer comes
 * back with {@code asks.resolve}. There is no deadline; a stop, a shutdown or the lack of any client
 * resolves the questions as skipped (empty answers).
 */
@Component(service = {AskService.class, ShutdownParticipant.class})
public final class AskService implements ShutdownParticipant {

    /**
     * The answers to one request; {@code skipped} when nobody answered; {@code overLimit} when the
     * questions were never shown (the session had {@link PendingPerSession#MAX} waiting already).
     */
    public record Answers(List<JsonNode> values, boolean skipped, String why, boolean overLimit) {
        public Answers(List<JsonNode> values, boolean skipped, String why) {
            this(values, skipped, why, false);
        }
    }

    /** A waiting question set, as {@code asks.pending} would list it. */
    public record AskRequest(String requestId, String sessionId, String turnId, String toolCallId,
            JsonNode questions, long createdAt) {
    }

    private record Pending(AskRequest request, CompletableFuture<Answers> answer) {
    }

    private final HostEvents events;
    private final ConcurrentHashMap<String, Pending> pending = new ConcurrentHashMap<>();
    private final PendingPerSession perSession;
    private volatile boolean closed;

    @Activate
    public AskService(@Reference HostEvents events) {
        this(events, PendingPerSession.MAX);
    }

    AskService(HostEvents events, int maxPerSession) {
        this.events = events;
        this.perSession = new PendingPerSession(maxPerSession);
    }

    /** Asks and waits; {@code onCancel} registers the stop that resolves it as skipped. */
    public Answers ask(String sessionId, String turnId, String toolCallId, JsonNode questions,
            java.util.function.Consumer<Runnable> onCancel) {
        if (closed) {
            return new Answers(List.of(), true, "the host is shutting down");
        }
        if (events.subscriberCount() == 0) {
            return new Answers(List.of(), true, "no client is attached to answer");
        }
        if (!perSession.take(sessionId)) {
            return new Answers(List.of(), true, "the session already has " + perSession.max()
                    + " questions waiting for the user; nothing was asked", true);
        }
        AskRequest request = new AskRequest("ask_" + UUID.randomUUID(), sessionId, turnId, toolCallId, questions,
                System.currentTimeMillis());
        CompletableFuture<Answers> answer = new CompletableFuture<>();
        pending.put(request.requestId(), new Pending(request, answer));
        try {
            onCancel.accept(() -> answer.complete(new Answers(List.of(), true, "the turn was stopped")));
            if (closed) {
                answer.complete(new Answers(List.of(), true, "the host is shutting down"));
            }
            events.publish("ask.request", request);
            try {
                return answer.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Answers(List.of(), true, "interrupted");
            } catch (ExecutionException e) {
                return new Answers(List.of(), true, String.valueOf(e.getCause()));
            }
        } finally {
            pending.remove(request.requestId());
            perSession.give(sessionId);
        }
    }

    /**
     * Answers a waiting request: one entry per question, a string, an array of strings (multiSelect)
     * or null (skipped). Empty when no such request waits; a message when the answers are malformed.
     */
    public Optional<String> resolve(String requestId, JsonNode answers) {
        Pending p = pending.get(requestId);
        if (p == null) {
            return Optional.of("no pending ask request " + ErrorText.quote(requestId));
        }
        int questions = p.request().questions().size();
        if (answers == null || !answers.isArray() || answers.size() != questions) {
            return Optional.of("answers must be an array with one entry per question (" + questions + ")");
        }
        List<JsonNode> values = new ArrayList<>();
        for (JsonNode a : answers) {
            boolean ok = a.isNull() || a.isTextual() || (a.isArray() && allText(a));
            if (!ok) {
                return Optional.of("each answer must be a string, an array of strings, or null");
            }
            values.add(a);
        }
        p.answer().complete(new Answers(values, false, null));
        return Optional.empty();
    }

    private static boolean allText(JsonNode array) {
        for (JsonNode n : array) {
            if (!n.isTextual()) {
                return false;
            }
        }
        return true;
    }

    public List<AskRequest> pending(String sessionId) {
        List<AskRequest> out = new ArrayList<>();
        for (Pending p : pending.values()) {
            if (sessionId == null || sessionId.equals(p.request().sessionId())) {
                out.add(p.request());
            }
        }
        return out;
    }

    @Override
    public void hostStopping() {
        closed = true;
        pending.values().forEach(p -> p.answer().complete(new Answers(List.of(), true, "the host is shutting down")));
    }

    @Deactivate
    private void deactivate() {
        hostStopping();
    }

    /** For the RPC table. */
    Map<String, Object> pendingView(String sessionId) {
        return Map.of("requests", pending(sessionId));
    }
}
