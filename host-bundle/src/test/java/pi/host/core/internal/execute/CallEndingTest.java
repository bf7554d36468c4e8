package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;

class CallEndingTest {

    private final List<String> ran = new ArrayList<>();
    private final ResultEnvelope result = ResultEnvelope.error(ErrorCode.TOOL_FAILED, "x", "t1");

    @Test
    void runsTheReleasesNewestFirstThenTheLastActionOnce() {
        CallEnding base = new CallEnding(r -> ran.add("last " + r.errorCode()));
        CallEnding ending = base.after(() -> ran.add("first added")).after(() -> ran.add("second added"));

        assertThat(ending.end(result)).isTrue();
        assertThat(ending.end(result)).isFalse();

        assertThat(ran).containsExactly("second added", "first added", "last TOOL_FAILED");
        assertThat(ending.ended()).isTrue();
    }

    @Test
    void anEarlierEndingRunsOnlyItsOwnReleasesAndEndsTheSameCall() {
        CallEnding base = new CallEnding(r -> ran.add("last"));
        CallEnding one = base.after(() -> ran.add("one"));
        CallEnding two = one.after(() -> ran.add("two"));

        assertThat(one.end(result)).isTrue();
        assertThat(two.end(result)).isFalse();

        assertThat(ran).containsExactly("one", "last");
        assertThat(two.ended()).isTrue();
    }

    @Test
    void theInnermostEndingRunsTheLastActionAlone() {
        CallEnding base = new CallEnding(r -> ran.add("last"));

        assertThat(base.ended()).isFalse();
        assertThat(base.end(result)).isTrue();

        assertThat(ran).containsExactly("last");
    }
}
