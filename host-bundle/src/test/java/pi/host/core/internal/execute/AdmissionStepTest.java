package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static pi.host.core.internal.execute.StepKit.path;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.Risk;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.DeclaredPath.Access;
import pi.host.spi.ToolKind;

class AdmissionStepTest extends StepTest {

    final AdmissionQueue queue = new AdmissionQueue(4);
    AdmissionStep step;
    SessionRecord s;

    @BeforeEach
    void setUp() throws Exception {
        step = new AdmissionStep(kit.sessions, queue, kit.visualizations);
        s = kit.session("agent", "auto");
    }

    /** A call whose declared paths have been resolved (by the real path step). */
    private CallState resolved(String tool, boolean mutates, pi.host.spi.DeclaredPath... paths) throws Exception {
        CallState c = kit.call(s, StepKit.builtin(tool, mutates ? ToolKind.EDIT : ToolKind.READ,
                mutates ? Risk.HIGH : Risk.LOW, mutates), "{}", paths);
        assertThat(new PathStep(kit.sessions, kit.resolvers, kit.hostState, false).apply(c, c.first)).isNull();
        return c;
    }

    /** Pins issue 13.6: Edit's MV destination is locked too, so a Read of it waits for the move. */
    @Test
    void everyDeclaredPathIsLockedUntilTheCallEnds() throws Exception {
        CallState mv = resolved("Edit", true, path("a.txt", PathKind.WRITABLE_FILE, Access.DELETE),
                path("b.txt", PathKind.WRITABLE_FILE, Access.CREATE));
        assertThat(step.apply(mv, mv.first)).isNull();
        CallState read = resolved("Read", false, path("b.txt", PathKind.WRITABLE_FILE, Access.READ));
        CompletableFuture<ResultEnvelope> waiting = CompletableFuture.supplyAsync(() -> step.apply(read, read.first));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
        assertThat(mv.queued).as("nothing was held before it").isFalse();
        mv.ending.end(mv.fail(ErrorCode.TOOL_FAILED, "done"));
        assertThat(waiting.get()).isNull();
        assertThat(read.queued).as("it waited for the move's lock: it is judged again").isTrue();
        assertThat(kit.sessions.scratchDir(s.id())).as("a mutating call gets its scratch dir").isDirectory();
    }

    @Test
    void anAbortWhileQueuedEndsTheCallWithoutRunningIt() throws Exception {
        CallState holder = resolved("Write", true, path("a.txt", PathKind.WRITABLE_FILE, Access.WRITE));
        step.apply(holder, holder.first);
        CallState queued = resolved("Write", true, path("c.txt", PathKind.WRITABLE_FILE, Access.WRITE));
        CompletableFuture<ResultEnvelope> waiting = CompletableFuture.supplyAsync(() -> step.apply(queued,
                queued.first));
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
        queued.cancel.cancel("aborted");
        assertThat(waiting.get().errorCode()).isEqualTo(ErrorCode.TOOL_ABORTED);
        holder.ending.end(holder.fail(ErrorCode.TOOL_FAILED, "done"));
    }
}
