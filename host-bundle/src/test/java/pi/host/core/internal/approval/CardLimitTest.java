package pi.host.core.internal.approval;

import pi.host.core.internal.info.StartupGate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.execute.CallCancellation;
import pi.host.core.internal.execute.CancellationRegistry;

/** Pins issue 12.6: a session could keep any number of permission cards waiting; past its bound a card is never shown. */
class CardLimitTest {

    private final HostEvents events = new HostEvents(StartupGate.open());
    private final ApprovalService approvals = new ApprovalService(events, 2);
    private final CancellationRegistry cancellations = new CancellationRegistry();
    private final List<String> published = new CopyOnWriteArrayList<>();

    CardLimitTest() {
        events.subscribe((method, params) -> published.add(method + ":" + ((params instanceof PermissionRequest r)
                ? r.requestId() : String.valueOf(params))));
    }

    private PermissionRequest card(String session, String id) {
        return new PermissionRequest(id, session, "t", "c-" + id, "Write", "high", "Write needs approval", null,
                null, null, null, System.currentTimeMillis(), GrantScope.roots("Write").wire(), "Write a file");
    }

    private CompletableFuture<ApprovalService.Outcome> ask(String session, String id) {
        CallCancellation c = cancellations.register(session, "c-" + id, "Write").orElseThrow();
        int before = approvals.pending(null).size();
        CompletableFuture<ApprovalService.Outcome> f = CompletableFuture.supplyAsync(
                () -> approvals.ask(card(session, id), c));
        await().atMost(Duration.ofSeconds(5)).until(() -> approvals.pending(null).size() == before + 1);
        return f;
    }

    @Test
    void aCardOverTheSessionsBoundIsRefusedWithoutBeingShown() throws Exception {
        CompletableFuture<ApprovalService.Outcome> a = ask("s", "a");
        ask("s", "b");
        CallCancellation c = cancellations.register("s", "c-x", "Write").orElseThrow();

        assertThat(approvals.ask(card("s", "x"), c)).isEqualTo(ApprovalService.Outcome.LIMIT);
        assertThat(published).as("no card announced for the refused call")
                .noneMatch(m -> m.endsWith(":x")).noneMatch(m -> m.startsWith("permission.resolved"));
        assertThat(approvals.pending("s")).extracting(PermissionRequest::requestId).containsExactlyInAnyOrder("a", "b");

        // another session is not limited by this one's cards
        ask("other", "o");
        assertThat(approvals.pending("other")).hasSize(1);

        // an answered card gives its place back
        assertThat(approvals.resolve("a", ApprovalService.Decision.DENY)).isTrue();
        assertThat(a.get(5, TimeUnit.SECONDS)).isEqualTo(ApprovalService.Outcome.DENIED);
        ask("s", "y");
        assertThat(approvals.pending("s")).extracting(PermissionRequest::requestId).containsExactlyInAnyOrder("b", "y");
    }

    @Test
    void theCountFollowsEveryWayACardEnds() throws Exception {
        PendingPerSession count = new PendingPerSession(1);
        assertThat(count.take("s")).isTrue();
        assertThat(count.take("s")).isFalse();
        assertThat(count.waiting("s")).isEqualTo(1);
        count.give("s");
        assertThat(count.waiting("s")).isZero();
        assertThat(count.take(null)).as("no session id is a session of its own").isTrue();

        CompletableFuture<ApprovalService.Outcome> cancelled = ask("s", "p");
        cancellations.abort("s", "c-p", "Write");
        assertThat(cancelled.get(5, TimeUnit.SECONDS)).isEqualTo(ApprovalService.Outcome.CANCELLED);
        ask("s", "q");
        ask("s", "r");
        approvals.hostStopping();
        await().atMost(Duration.ofSeconds(5)).until(() -> approvals.pending(null).isEmpty());
        CallCancellation c = cancellations.register("s", "c-z", "Write").orElseThrow();
        assertThat(approvals.ask(card("s", "z"), c)).isEqualTo(ApprovalService.Outcome.SHUTDOWN);
    }
}
