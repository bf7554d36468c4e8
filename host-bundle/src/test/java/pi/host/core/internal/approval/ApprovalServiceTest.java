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

class ApprovalServiceTest {

    private final HostEvents events = new HostEvents(StartupGate.open());
    private final ApprovalService approvals = new ApprovalService(events);
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final CancellationRegistry cancellations = new CancellationRegistry();

    private PermissionRequest card(String id) {
        return new PermissionRequest(id, "s", "t", "c-" + id, "Write", "high", "Write needs approval", null, null,
                null, null, System.currentTimeMillis(), GrantScope.roots("Write").wire(), "Write x");
    }

    private CallCancellation cancellation(String id) {
        return cancellations.register("s", "c-" + id, "Write").orElseThrow();
    }

    private CompletableFuture<ApprovalService.Outcome> ask(String id) {
        CallCancellation c = cancellation(id);
        CompletableFuture<ApprovalService.Outcome> f = CompletableFuture.supplyAsync(() -> approvals.ask(card(id), c));
        await().atMost(Duration.ofSeconds(5)).until(() -> approvals.pending(null).size() == 1);
        return f;
    }

    @Test
    void withNoClientAttachedTheAnswerIsNoApprover() {
        assertThat(approvals.ask(card("a"), cancellation("a"))).isEqualTo(ApprovalService.Outcome.NO_APPROVER);
    }

    @Test
    void aCardWaitsForTheDecisionAndIsAnnouncedAndResolved() throws Exception {
        events.subscribe((method, params) -> seen.add(method));
        CompletableFuture<ApprovalService.Outcome> f = ask("a");
        assertThat(seen).containsExactly("permission.request");
        assertThat(approvals.pending("s")).extracting(PermissionRequest::requestId).containsExactly("a");
        assertThat(approvals.pending("other")).isEmpty();
        assertThat(approvals.resolve("a", ApprovalService.Decision.ALLOW_SESSION)).isTrue();
        assertThat(f.get(5, TimeUnit.SECONDS)).isEqualTo(ApprovalService.Outcome.ALLOWED_SESSION);
        assertThat(approvals.pending(null)).isEmpty();
        assertThat(seen).containsExactly("permission.request", "permission.resolved");
        assertThat(approvals.resolve("a", ApprovalService.Decision.DENY)).as("already resolved").isFalse();
    }

    @Test
    void cancellationEndsAWaitingCard() throws Exception {
        events.subscribe((method, params) -> { });
        CompletableFuture<ApprovalService.Outcome> f = ask("b");
        cancellations.abort("s", "c-b", "Write");
        assertThat(f.get(5, TimeUnit.SECONDS)).isEqualTo(ApprovalService.Outcome.CANCELLED);
        assertThat(approvals.pending(null)).isEmpty();
    }

    @Test
    void shutdownEndsWaitingCardsAndRefusesNewOnes() throws Exception {
        events.subscribe((method, params) -> { });
        CompletableFuture<ApprovalService.Outcome> f = ask("c");
        approvals.hostStopping();
        assertThat(f.get(5, TimeUnit.SECONDS)).isEqualTo(ApprovalService.Outcome.SHUTDOWN);
        assertThat(approvals.ask(card("d"), cancellation("d"))).isEqualTo(ApprovalService.Outcome.SHUTDOWN);
    }

    @Test
    void decisionsParseFromTheirWireWords() {
        assertThat(ApprovalService.Decision.parse("allow-once")).contains(ApprovalService.Decision.ALLOW_ONCE);
        assertThat(ApprovalService.Decision.parse("allow-session")).contains(ApprovalService.Decision.ALLOW_SESSION);
        assertThat(ApprovalService.Decision.parse("deny")).contains(ApprovalService.Decision.DENY);
        assertThat(ApprovalService.Decision.parse("Allow-Once")).isEmpty();
        assertThat(ApprovalService.Decision.parse("allow")).isEmpty();
    }
}
