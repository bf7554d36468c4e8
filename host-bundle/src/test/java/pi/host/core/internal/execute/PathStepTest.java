package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;
import static pi.host.core.internal.execute.StepKit.path;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.core.internal.store.SessionRecord;
import pi.host.spi.DeclaredPath.Access;
import pi.host.spi.ToolKind;

class PathStepTest extends StepTest {

    PathStep first;
    PathStep again;
    SessionRecord s;

    @BeforeEach
    void setUp() throws Exception {
        first = new PathStep(kit.sessions, kit.resolvers, kit.hostState, false);
        again = new PathStep(kit.sessions, kit.resolvers, kit.hostState, true);
        s = kit.session("agent", "ask");
        Files.writeString(kit.project.resolve("a.txt"), "a\n");
    }

    @Test
    void everyDeclaredPathIsResolvedAndListedForTheAudit() throws Exception {
        Path outside = Files.writeString(tmp.resolve("out.txt"), "o");
        CallState c = kit.call(s, StepKit.builtin("Edit", ToolKind.EDIT, Risk.HIGH, true), "{}",
                path("a.txt", PathKind.WRITABLE_FILE, Access.DELETE), path(outside.toString(), PathKind.WRITABLE_FILE,
                        Access.CREATE));
        assertThat(first.apply(c, c.first)).isNull();
        assertThat(c.first.paths).extracting(ResolvedPath::root).containsExactly(ResolvedPath.Root.WORKSPACE,
                ResolvedPath.Root.EXTERNAL);
        assertThat(c.first.outside).isTrue();
        assertThat(c.first.scope.inRoots()).isTrue();
        assertThat(c.first.scope.paths()).extracting(a -> a.path()).containsExactly(outside.toRealPath());
        assertThat(c.auditPaths).isEqualTo("[{\"path\":\"a.txt\",\"root\":\"workspace\",\"access\":\"delete\"},"
                + "{\"path\":\"" + outside.toRealPath() + "\",\"root\":\"external\",\"access\":\"create\"}]");
    }

    @Test
    void theHostsOwnStateIsDeniedBeforeAnyCard() throws Exception {
        CallState c = kit.call(s, StepKit.builtin("Write", ToolKind.EDIT, Risk.HIGH, true), "{}",
                path(kit.data.resolve("mcp.json").toString(), PathKind.WRITABLE_FILE, Access.WRITE));
        ResultEnvelope r = first.apply(c, c.first);
        assertThat(r.errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
        assertThat(c.rule).isEqualTo("host-state.data-dir");
        CallState own = kit.call(s, StepKit.builtin("Write", ToolKind.EDIT, Risk.HIGH, true), "{}",
                path(kit.sessions.scratchDir(s.id()).resolve("x.txt").toString(), PathKind.WRITABLE_FILE,
                        Access.WRITE));
        assertThat(first.apply(own, own.first)).as("its own scratch").isNull();
        assertThat(own.first.scratchTarget).isTrue();
    }

    @Test
    void aChangedControlFileIsNotedAndNamedInTheScope() throws Exception {
        CallState c = kit.call(s, StepKit.builtin("Write", ToolKind.EDIT, Risk.HIGH, true), "{}",
                path(".git/config", PathKind.WRITABLE_FILE, Access.WRITE));
        assertThat(first.apply(c, c.first)).isNull();
        assertThat(c.first.control).isTrue();
        assertThat(c.first.scope.inRoots()).isFalse();
        CallState read = kit.call(s, StepKit.builtin("Read", ToolKind.READ, Risk.LOW, false), "{}",
                path(".gitattributes", PathKind.WRITABLE_FILE, Access.READ));
        assertThat(first.apply(read, read.first)).isNull();
        assertThat(read.first.control).as("reading is not changing").isFalse();
        assertThat(read.first.scope).as("the in-root scope").isNull();
    }

    @Test
    void theRecheckRefusesAPathThatNowLandsElsewhere() throws Exception {
        Path dir = Files.createDirectories(kit.project.resolve("d"));
        CallState c = kit.call(s, StepKit.builtin("Write", ToolKind.EDIT, Risk.HIGH, true), "{}",
                path("d/f.txt", PathKind.WRITABLE_FILE, Access.WRITE));
        assertThat(first.apply(c, c.first)).isNull();
        Evaluation e = new Evaluation();
        e.session = s;
        assertThat(again.apply(c, e)).isNull();
        assertThat(e.paths).isEqualTo(c.first.paths);
        Files.delete(dir);
        Files.createSymbolicLink(dir, Files.createDirectories(tmp.resolve("elsewhere")));
        Evaluation later = new Evaluation();
        later.session = s;
        assertThat(again.apply(c, later).errorCode()).isEqualTo(ErrorCode.TOOL_DENIED);
    }

    @Test
    void aBadPathIsInvalidArgumentWithItsSuggestion() throws Exception {
        Files.createDirectories(kit.project.resolve("src"));
        CallState c = kit.call(s, StepKit.builtin("Read", ToolKind.READ, Risk.LOW, false), "{}",
                path("src", PathKind.EXISTING_FILE, Access.READ));
        ResultEnvelope r = first.apply(c, c.first);
        assertThat(r.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(r.details().get("suggestion").get("tool").asText()).isEqualTo("Glob");
    }
}
