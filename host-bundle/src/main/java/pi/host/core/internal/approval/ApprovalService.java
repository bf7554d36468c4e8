package pi.host.core.internal.approval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.execute.CallCancellation;
import pi.host.core.internal.info.ShutdownParticipant;

/**
 * Permission cards: emits {@code permission.request}, then waits with no deadline (spec §7) until
 * the user decides, the call is cancelled, or the host shuts down. Fails closed: with no client
 * attached there is nobody to ask, so the answer is deny. A session has at most
 * {@link PendingPerSession#MAX} cards waiting; past that a card is not shown ({@link Outcome#LIMIT}).
 */
@Component(service = {ApprovalService.class, ShutdownParticipant.class})
public final class ApprovalService implements ShutdownParticipant {

    /** A user's decision on a card. */
    public enum Decision {
        ALLOW_ONCE, ALLOW_SESSION, DENY;

        public String wire() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Optional<Decision> parse(String word) {
            for (Decision d : values()) {
                if (d.wire().equals(word)) {
                    return Optional.of(d);
                }
            }
            return Optional.empty();
        }
    }

    /** How a card ended. */
    public enum Outcome {
        ALLOWED_ONCE, ALLOWED_SESSION, DENIED, CANCELLED, SHUTDOWN, NO_APPROVER,
        /** Never shown: the session had as many cards waiting as it may have. */
        LIMIT;

        public boolean allowed() {
            return this == ALLOWED_ONCE || this == ALLOWED_SESSION;
        }
    }

    private final HostEvents events;
    private final ConcurrentHashMap<String, Pending> pending = new ConcurrentHashMap<>();
    private final PendingPerSession perSession;
    private volatile boolean closed;

    private record Pending(PermissionRequest request, CompletableFuture<Outcome> answer) {
    }

    @Activate
    public ApprovalService(@Reference HostEvents events) {
        this(events, PendingPerSession.MAX);
    }

    ApprovalService(HostEvents events, int maxPerSession) {
        this.events = events;
        this.perSession = new PendingPerSession(maxPerSession);
    }

    /** How many cards one session may have waiting. */
    public int maxPerSession() {
        return perSession.max();
    }

    /** A fresh request id. */
    public static String newRequestId() {
        return "perm_" + UUID.randomUUID();
    }

    /** Shows the card and blocks until it is answered, cancelled, or the host stops. */
    public Outcome ask(PermissionRequest request, CallCancellation cancellation) {
        if (closed) {
            return Outcome.SHUTDOWN;
        }
        if (events.subscriberCount() == 0) {
            return Outcome.NO_APPROVER;
        }
        if (!perSession.take(request.sessionId())) {
            return Outcome.LIMIT;
        }
        CompletableFuture<Outcome> answer = new CompletableFuture<>();
        pending.put(request.requestId(), new Pending(request, answer));
        try (CallCancellation.AutoCloseableAction hook = cancellation.onCancel(
                () -> answer.complete(Outcome.CANCELLED))) {
            if (closed) {
                answer.complete(Outcome.SHUTDOWN); // raced with deactivation
            }
            events.publish("permission.request", request);
            Outcome outcome;
            try {
                outcome = answer.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                outcome = Outcome.CANCELLED;
            } catch (ExecutionException e) {
                outcome = Outcome.DENIED;
            }
            events.publish("permission.resolved", Map.of("requestId", request.requestId(),
                    "sessionId", request.sessionId(), "toolCallId", request.toolCallId(),
                    "outcome", outcome.name().toLowerCase(Locale.ROOT)));
            return outcome;
        } finally {
            pending.remove(request.requestId());
            perSession.give(request.sessionId());
        }
    }

    /** Applies a user's decision; false when no card with this id is waiting. */
    public boolean resolve(String requestId, Decision decision) {
        Pending p = pending.get(requestId);
        if (p == null) {
            return false;
        }
        Outcome outcome = decision == Decision.DENY ? Outcome.DENIED
                : decision == Decision.ALLOW_SESSION ? Outcome.ALLOWED_SESSION : Outcome.ALLOWED_ONCE;
        return p.answer().complete(outcome);
    }

    /** The waiting cards, of one session or of all (null), oldest first. */
    public List<PermissionRequest> pending(String sessionId) {
        List<PermissionRequest> out = new ArrayList<>();
        for (Pending p : pending.values()) {
            if (sessionId == null || sessionId.equals(p.request().sessionId())) {
                out.add(p.request());
            }
        }
        out.sort((a, b) -> Long.compare(a.createdAt(), b.createdAt()));
        return out;
    }

    @Override
    public void hostStopping() {
        shutdown();
    }

    /** Ends every waiting card as a shutdown (the calls are denied, nothing runs). */
    @Deactivate
    public void shutdown() {
        closed = true;
        pending.values().forEach(p -> p.answer().complete(Outcome.SHUTDOWN));
    }
}
