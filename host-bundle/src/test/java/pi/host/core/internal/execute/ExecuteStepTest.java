package pi.host.core.internal.execute;

import pi.host.core.internal.info.StartupGate;
import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.core.internal.execute.StepKit.path;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.registry.Preparer;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.DeclaredPath.Access;
import pi.host.spi.PreparedCall;
import pi.host.spi.ToolKind;
import pi.host.spi.WalkLimits;

class ExecuteStepTest extends StepTest {

    final ToolRunner runner = new ToolRunner();
    final AtomicReference<ToolCall> seen = new AtomicReference<>();

    @AfterEach
    void close() {
        runner.close();
    }

    private final ToolProvider recording = StepKit.provider("{}", call -> {
        seen.set(call);
        return ToolResult.builder().text("done").detail("n", 1).build();
    });

    /** Runs {@code c} through the real path step, then this step; returns its result. */
    private ResultEnvelope run(CallState c) throws Exception {
        assertThat(new PathStep(kit.sessions, kit.resolvers, kit.hostState, false).apply(c, c.first)).isNull();
        CompletableFuture<ResultEnvelope> result = new CompletableFuture<>();
        c.ending = new CallEnding(result::complete);
        assertThat(new ExecuteStep(kit.sessions, new HostEvents(StartupGate.open()), kit.hostState, runner).apply(c, c.first)).isNull();
        return result.get(10, TimeUnit.SECONDS);
    }

    @Test
    void theToolGetsEveryDeclaredPathResolvedAndTheResultCarriesTheFirst() throws Exception {
        SessionRecord s = kit.session("agent", "auto");
        CallState c = kit.call(s, Registered.builtin("Edit", ToolKind.EDIT, Risk.HIGH, true, Preparer.none("Edit"),
                recording), "{\"path\":\"a.txt\"}", path("a.txt", PathKind.WRITABLE_FILE, Access.DELETE),
                path("sub/b.txt", PathKind.WRITABLE_FILE, Access.CREATE));
        ResultEnvelope r = run(c);
        assertThat(r.ok()).isTrue();
        assertThat(r.root()).isEqualTo("workspace");
        assertThat(r.path()).isEqualTo("a.txt");
        List<ResolvedPath> paths = PreparedCall.paths(seen.get());
        assertThat(paths).extracting(ResolvedPath::display).containsExactly("a.txt", "sub/b.txt");
        assertThat(seen.get().arguments()).containsEntry("path", "a.txt");
        assertThat(c.bodyNanos).isPositive();
    }

    @Test
    void aWalkOfADirectoryHoldingTheDataDirIsToldToStayOutOfIt() throws Exception {
        SessionRecord s = kit.session("agent", "auto");
        Path parent = kit.data.getParent();
        Files.createDirectories(parent);
        CallState c = kit.call(s, Registered.builtin("Glob", ToolKind.READ, Risk.LOW, false, Preparer.none("Glob"),
                recording), "{}", path(parent.toString(), PathKind.DIRECTORY, Access.READ));
        assertThat(run(c).ok()).isTrue();
        assertThat(WalkLimits.of(seen.get())).containsExactly(kit.data);
        CallState inside = kit.call(s, Registered.builtin("Glob", ToolKind.READ, Risk.LOW, false,
                Preparer.none("Glob"), recording), "{}", path(".", PathKind.DIRECTORY, Access.READ));
        run(inside);
        assertThat(WalkLimits.of(seen.get())).as("the project holds no host state").isEmpty();
    }
}
