package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CancellationRegistryTest {

    private final CancellationRegistry registry = new CancellationRegistry();

    @Test
    void abortCancelsTheInFlightCallAndRunsItsActions() {
        CallCancellation c = registry.register("s", "c1", "Bash").orElseThrow();
        AtomicInteger ran = new AtomicInteger();
        c.onCancel(ran::incrementAndGet);
        assertThat(registry.abort("s", "c1", null)).isTrue();
        assertThat(c.isCancelled()).isTrue();
        assertThat(c.reason()).isEqualTo("aborted");
        assertThat(ran).hasValue(1);
        c.cancel("again");
        assertThat(ran).hasValue(1);
    }

    @Test
    void anAbortNamingAnotherToolDoesNotTouchTheCall() {
        CallCancellation c = registry.register("s", "c1", "Bash").orElseThrow();
        assertThat(registry.abort("s", "c1", "Write")).isFalse();
        assertThat(c.isCancelled()).isFalse();
    }

    @Test
    void anAbortThatArrivesFirstCancelsTheSameToolOnly() {
        assertThat(registry.abort("s", "c1", "Bash")).isFalse();
        // another tool reusing the id does not inherit the record
        CallCancellation other = registry.register("s", "c1", "Read").orElseThrow();
        assertThat(other.isCancelled()).isFalse();
        registry.unregister("s", "c1", other);
        CallCancellation bash = registry.register("s", "c1", "Bash").orElseThrow();
        assertThat(bash.isCancelled()).isTrue();
    }

    @Test
    void queuedBatchCallsCanBeAbortedByIdAlone() {
        registry.expect("s", "c2", "Write");
        assertThat(registry.abort("s", "c2", null)).isTrue();
        registry.unexpect("s", "c2");
        assertThat(registry.register("s", "c2", "Write").orElseThrow().isCancelled()).isTrue();
    }

    @Test
    void sessionsDoNotSeeEachOthersCalls() {
        CallCancellation a = registry.register("s1", "c", "Bash").orElseThrow();
        CallCancellation b = registry.register("s2", "c", "Bash").orElseThrow();
        registry.abort("s1", "c", null);
        assertThat(a.isCancelled()).isTrue();
        assertThat(b.isCancelled()).isFalse();
        registry.cancelAll("s2", "session deleted");
        assertThat(b.reason()).isEqualTo("session deleted");
    }

    @Test
    void aSecondCallWithTheSameIdWhileTheFirstRunsIsRefused() {
        registry.register("s", "c", "Read").orElseThrow();
        assertThat(registry.register("s", "c", "Read")).isEmpty();
    }

    @Test
    void aClosedHookIsNotRun() {
        CallCancellation c = registry.register("s", "c", "Read").orElseThrow();
        AtomicInteger ran = new AtomicInteger();
        c.onCancel(ran::incrementAndGet).close();
        c.cancel("aborted");
        assertThat(ran).hasValue(0);
    }

    @Test
    void abortUnlessRunningLeavesARunningCallAndItsActionsAlone() {
        CallCancellation c = registry.register("s", "c1", "Bash").orElseThrow();
        AtomicInteger ran = new AtomicInteger();
        c.onCancel(ran::incrementAndGet);
        assertThat(registry.abortUnlessRunning("s", "c1", null)).isNull();
        assertThat(registry.abortUnlessRunning("s", "c1", "Bash")).isNull();
        assertThat(c.isCancelled()).isFalse();
        assertThat(ran).hasValue(0);
        // another tool's name is answered at once: nothing would be cancelled
        assertThat(registry.abortUnlessRunning("s", "c1", "Write")).isFalse();
        assertThat(c.isCancelled()).isFalse();
    }

    @Test
    void abortUnlessRunningCancelsQueuedCallsAndRemembersEarlyAborts() {
        registry.expect("s", "c2", "Write");
        assertThat(registry.abortUnlessRunning("s", "c2", null)).isTrue();
        registry.unexpect("s", "c2");
        assertThat(registry.register("s", "c2", "Write").orElseThrow().isCancelled()).isTrue();
        assertThat(registry.abortUnlessRunning("s", "c3", "Bash")).isFalse();
        assertThat(registry.register("s", "c3", "Bash").orElseThrow().isCancelled()).isTrue();
        assertThat(registry.abortUnlessRunning("s", "none", null)).isFalse();
    }
}
