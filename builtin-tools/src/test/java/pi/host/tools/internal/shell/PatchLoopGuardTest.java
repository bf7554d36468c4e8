package pi.host.tools.internal.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shell-patch guard counts in the Edit guard's scope: the delegate run, else the turn. */
class PatchLoopGuardTest {

    private static FakeCall call(String session, String turn, String delegationId) {
        FakeCall c = new FakeCall(Map.of(), Path.of("/w"), Path.of("/s"), session, turn);
        c.delegationId = delegationId;
        return c;
    }

    @Test
    void failuresInOneTurnAddUpAndOtherTurnsAndSessionsStartAgain() {
        PatchLoopGuard guard = new PatchLoopGuard();
        assertThat(guard.failed(call("s1", "t1", null))).isEqualTo(1);
        assertThat(guard.failed(call("s1", "t1", null))).isEqualTo(2);
        assertThat(guard.failed(call("s1", "t2", null))).isEqualTo(1);
        assertThat(guard.failed(call("s2", "t1", null))).isEqualTo(1);
    }

    @Test
    void aDelegateRunCountsApartFromItsParentsTurnEvenWithTheSameTurnId() {
        PatchLoopGuard guard = new PatchLoopGuard();
        guard.failed(call("s1", "t1", null));
        guard.failed(call("s1", "t1", null));
        // the delegate's calls carry the parent's turn id, but their scope is the delegate run
        assertThat(guard.failed(call("s1", "t1", "dl_a"))).isEqualTo(1);
        assertThat(guard.failed(call("s1", "t1", "dl_a"))).isEqualTo(2);
        assertThat(guard.failed(call("s1", "t1", "dl_b"))).isEqualTo(1);
        assertThat(guard.failed(call("s1", "t1", null))).isEqualTo(3);
        assertThat(guard.failed(call("s1", "t1", "dl_a"))).isEqualTo(3);
    }
}
