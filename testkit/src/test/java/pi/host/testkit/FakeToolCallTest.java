package pi.host.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import pi.host.api.ToolCall.Stream;

class FakeToolCallTest {

    private final Path workspace = Path.of("/work/space");

    @Test
    void theDefaultsSuitATestThatLooksAtTheResultOnly() {
        Instant before = Instant.now();
        FakeToolCall call = new FakeToolCall(workspace, Map.of("a", 1));

        assertThat(call.arguments()).containsEntry("a", 1);
        assertThat(call.workspaceRoot()).isEqualTo(workspace);
        assertThat(call.scratchDir()).isEqualTo(workspace.resolve(".scratch"));
        assertThat(call.toolName()).isEqualTo("tool");
        assertThat(call.sessionId()).isEqualTo("s1");
        assertThat(call.turnId()).isEqualTo("t1");
        assertThat(call.path()).isEmpty();
        assertThat(call.isCancelled()).isFalse();
        assertThat(call.deadline()).isBetween(before.plusSeconds(30), Instant.now().plusSeconds(30));
    }

    @Test
    void eachSetterChangesItsOneFact() {
        FakeToolCall call = new FakeToolCall(workspace, Map.of(), Duration.ofMillis(500))
                .toolName("Bash").ids("s9", "t9").scratchDir(Path.of("/scratch"));

        assertThat(call.toolName()).isEqualTo("Bash");
        assertThat(call.sessionId()).isEqualTo("s9");
        assertThat(call.turnId()).isEqualTo("t9");
        assertThat(call.scratchDir()).isEqualTo(Path.of("/scratch"));
        assertThat(call.deadline()).isBefore(Instant.now().plusSeconds(1));
    }

    @Test
    void cancelRunsEachRegisteredActionOnceAndALateOneAtOnce() {
        FakeToolCall call = new FakeToolCall(workspace, Map.of());
        AtomicInteger early = new AtomicInteger();
        AtomicInteger late = new AtomicInteger();
        call.onCancel(early::incrementAndGet);

        call.cancel();
        call.cancel();
        assertThat(call.isCancelled()).isTrue();
        assertThat(early).hasValue(1);

        call.onCancel(late::incrementAndGet);
        assertThat(late).hasValue(1);
    }

    @Test
    void streamedOutputIsRecordedPerStreamAndHandedToTheHook() {
        List<String> seen = new ArrayList<>();
        FakeToolCall call = new FakeToolCall(workspace, Map.of())
                .onOutput((stream, chunk) -> seen.add(stream + ":" + chunk));

        call.output(Stream.STDOUT, "a");
        call.output(Stream.STDERR, "b");
        call.output(Stream.STDOUT, "c");

        assertThat(call.output(Stream.STDOUT)).containsExactly("a", "c");
        assertThat(call.output(Stream.STDERR)).containsExactly("b");
        assertThat(seen).containsExactly("STDOUT:a", "STDERR:b", "STDOUT:c");
    }
}
