package pi.host.core.internal.execute;

import pi.host.core.internal.info.StartupGate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static pi.host.core.internal.execute.StepKit.path;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.Risk;
import pi.host.core.internal.approval.ApprovalService;
import pi.host.core.internal.approval.GrantScope;
import pi.host.core.internal.approval.PermissionRequest;
import pi.host.core.internal.approval.SessionGrants;
import pi.host.core.internal.events.HostEvents;
import pi.host.spi.DeclaredPath.Access;
import pi.host.spi.ToolKind;

class ApprovalStepTest extends StepTest {

    final HostEvents events = new HostEvents(StartupGate.open());
    final ApprovalService approvals = new ApprovalService(events);
    final SessionGrants grants = new SessionGrants();
    final List<PermissionRequest> cards = new CopyOnWriteArrayList<>();
    ApprovalStep step;

    @BeforeEach
    void setUp() throws Exception {
        step = new ApprovalStep(approvals, grants);
        events.subscribe((method, params) -> {
            if (params instanceof PermissionRequest) {
                cards.add((PermissionRequest) params);
            }
        });
    }

    /** A Read of an outside file under ask, judged by the real path and policy steps. */
    private CallState outsideRead(Path file) throws Exception {
        CallState c = kit.call(kit.session("agent", "ask"), StepKit.builtin("Read", ToolKind.READ, Risk.LOW, false),
                "{}", path(file.toString(), PathKind.EXISTING_FILE, Access.READ));
        new PathStep(kit.sessions, kit.resolvers, kit.hostState, false).apply(c, c.first);
        new PolicyStep(kit.settings, grants).apply(c, c.first);
        return c;
    }

    private CompletableFuture<ResultEnvelope> ask(CallState c) {
        CompletableFuture<ResultEnvelope> f = CompletableFuture.supplyAsync(() -> step.apply(c, c.first));
        await().atMost(Duration.ofSeconds(10)).until(() -> !approvals.pending(null).isEmpty());
        return f;
    }

    @Test
    void theCardSaysWhatTheCallDoesAndWhatAGrantCovers() throws Exception {
        Path file = Files.writeString(tmp.resolve("hostname"), "h\n");
        CallState c = outsideRead(file);
        CompletableFuture<ResultEnvelope> f = ask(c);
        PermissionRequest card = cards.get(0);
        assertThat(card.externalPath()).isEqualTo(file.toRealPath().toString());
        assertThat(card.description()).isEqualTo("Read");
        assertThat(card.grantScope().inRoots()).isFalse();
        assertThat(card.grantScope().paths()).containsExactly(new GrantScope.WirePath(file.toRealPath().toString(),
                false));
        approvals.resolve(card.requestId(), ApprovalService.Decision.ALLOW_SESSION);
        assertThat(f.get()).isNull();
        assertThat(c.userAllowed).isTrue();
        assertThat(c.source).isEqualTo("user:allow-session");
        assertThat(grants.covers(c.first.session.id(), c.first.scope)).isTrue();
        assertThat(grants.coversRoots(c.first.session.id(), "Read")).as("nothing wider than the card").isFalse();
    }

    @Test
    void aDenialAndNoClientBothEndTheCallDenied() throws Exception {
        CallState c = outsideRead(Files.writeString(tmp.resolve("x"), "x"));
        CompletableFuture<ResultEnvelope> f = ask(c);
        approvals.resolve(cards.get(0).requestId(), ApprovalService.Decision.DENY);
        assertThat(f.get().errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(c.userAllowed).isFalse();
        ApprovalStep unattended = new ApprovalStep(new ApprovalService(new HostEvents(StartupGate.open())), grants);
        CallState alone = outsideRead(Files.writeString(tmp.resolve("y"), "y"));
        assertThat(unattended.apply(alone, alone.first).errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(alone.source).isEqualTo("no-approver");
    }

    @Test
    void aCardEndedByItsSessionsDeletionIsSessionNotFound() throws Exception {
        CallState c = outsideRead(Files.writeString(tmp.resolve("z"), "z"));
        CompletableFuture<ResultEnvelope> f = ask(c);
        kit.cancellations.sessionDeleted(c.first.session.id());
        assertThat(f.get().errorCode()).isEqualTo(ErrorCode.SESSION_NOT_FOUND);
        CallState aborted = outsideRead(Files.writeString(tmp.resolve("w"), "w"));
        CompletableFuture<ResultEnvelope> g = ask(aborted);
        aborted.cancel.cancel("aborted");
        assertThat(g.get().errorCode()).isEqualTo(ErrorCode.TOOL_ABORTED);
    }

    @Test
    void aCallThePolicyAllowedShowsNoCard() throws Exception {
        CallState c = kit.call(kit.session("agent", "auto"), StepKit.builtin("Bash", ToolKind.EXEC, Risk.HIGH, true),
                "{}");
        new PolicyStep(kit.settings, grants).apply(c, c.first);
        assertThat(step.apply(c, c.first)).isNull();
        assertThat(c.prompted).isFalse();
        assertThat(cards).isEmpty();
    }
}
