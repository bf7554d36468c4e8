package pi.host.core.internal.execute;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.Risk;
import pi.host.core.internal.registry.Preparer;
import pi.host.core.internal.registry.Registered;
import pi.host.spi.DeclaredPath;
import pi.host.spi.Invocation;
import pi.host.spi.ToolKind;

class PrepareStepTest extends StepTest {


    private CallState call(Preparer preparer, String args) throws Exception {
        CallState c = kit.call(kit.session("agent", "ask"), Registered.builtin("Edit", ToolKind.EDIT, Risk.HIGH, true,
                preparer, StepKit.ECHO), args);
        c.invocation = null;
        return c;
    }

    @Test
    void theToolNamesEveryPathBeforePolicy() throws Exception {
        CallState c = call(a -> Invocation.of("Edit: move a to b", List.of(
                new DeclaredPath((String) a.get("path"), PathKind.WRITABLE_FILE, DeclaredPath.Access.DELETE),
                new DeclaredPath("b", PathKind.WRITABLE_FILE, DeclaredPath.Access.CREATE))), "{\"path\":\"a\"}");
        assertThat(new PrepareStep().apply(c, c.first)).isNull();
        assertThat(c.invocation.paths()).extracting(DeclaredPath::raw).containsExactly("a", "b");
        assertThat(c.invocation.description()).isEqualTo("Edit: move a to b");
    }

    @Test
    void argumentsThatCannotMakeACallAreInvalid() throws Exception {
        CallState c = call(a -> Invocation.invalid("'path' must be a path string"), "{}");
        ResultEnvelope r = new PrepareStep().apply(c, c.first);
        assertThat(r.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(r.text()).containsExactly("'path' must be a path string");
    }

    @Test
    void aToolThatFailsToPrepareFailsTheCallAsTyped() throws Exception {
        CallState thrown = call(a -> {
            throw new IllegalStateException("bug");
        }, "{}");
        assertThat(new PrepareStep().apply(thrown, thrown.first).errorCode()).isEqualTo(ErrorCode.TOOL_FAILED);
        CallState none = call(a -> null, "{}");
        assertThat(new PrepareStep().apply(none, none.first).errorCode()).isEqualTo(ErrorCode.TOOL_FAILED);
    }
}
