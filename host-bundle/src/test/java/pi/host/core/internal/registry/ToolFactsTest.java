package pi.host.core.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.osgi.framework.ServiceReference;
import pi.host.api.PathKind;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.args.ArgumentAliases;
import pi.host.spi.Builtin;
import pi.host.spi.DeclaredPath;
import pi.host.spi.Invocation;
import pi.host.spi.PreparedTool;
import pi.host.spi.ToolKind;

/** Per-tool facts are read from the tool's declaration for builtins and from the origin for everything else. */
class ToolFactsTest {

    private static ServiceReference<?> ref(Object... kv) {
        Map<String, Object> props = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            props.put((String) kv[i], kv[i + 1]);
        }
        return (ServiceReference<?>) Proxy.newProxyInstance(ToolFactsTest.class.getClassLoader(),
                new Class<?>[] {ServiceReference.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getProperty")) {
                        return props.get((String) args[0]);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A provider whose behaviour does not matter here: only its declarations are read. */
    private static class Plain implements ToolProvider {
        @Override
        public String description() {
            return "";
        }

        @Override
        public String inputSchema() {
            return "{}";
        }

        @Override
        public ToolResult execute(ToolCall call) {
            return ToolResult.ok("");
        }
    }

    private static final ToolProvider PLAIN = new Plain();

    private static final class Prepared extends Plain implements PreparedTool {
        @Override
        public Invocation prepare(Map<String, Object> arguments) {
            return Invocation.of("two", List.of(new DeclaredPath("a", PathKind.WRITABLE_FILE, DeclaredPath.Access.DELETE),
                    new DeclaredPath("b", PathKind.WRITABLE_FILE, DeclaredPath.Access.CREATE)));
        }
    }

    @Test
    void aBuiltinsFactsAreItsDeclaration() throws Exception {
        ToolFacts f = ToolFacts.read(ToolOrigin.BUILTIN, "Read", PLAIN, ref(Builtin.KIND, "READ",
                Builtin.ALIASES, new String[] {"path=file_path"}, Builtin.PARALLEL, true, Builtin.SOLO, false,
                Tool.PATH_ARG, "path", Tool.PATH_KIND, "EXISTING_FILE"));
        assertThat(f.kind()).isEqualTo(ToolKind.READ);
        assertThat(f.aliases()).containsExactly(new ArgumentAliases.Alias("path", "file_path"));
        assertThat(f.parallel()).isTrue();
        assertThat(f.solo()).isFalse();
        Invocation inv = f.preparer().prepare(Map.of("path", "a.txt"));
        assertThat(inv.paths()).containsExactly(new DeclaredPath("a.txt", PathKind.EXISTING_FILE,
                DeclaredPath.Access.READ));
        assertThat(inv.description()).isEqualTo("Read a.txt");
    }

    @Test
    void anOptionalDirectoryLeftOutIsTheWorkspaceRootAndAMutatingToolWritesBelowIt() throws Exception {
        ToolFacts f = ToolFacts.read(ToolOrigin.BUILTIN, "PluginScaffold", PLAIN, ref(Builtin.KIND, "PLUGIN_TOOLING",
                Tool.PATH_ARG, "path", Tool.PATH_KIND, "DIRECTORY", Tool.MUTATES, true));
        assertThat(f.preparer().prepare(Map.of()).paths()).containsExactly(new DeclaredPath(".", PathKind.DIRECTORY,
                DeclaredPath.Access.WRITE));
        assertThat(f.preparer().prepare(Map.of("path", 3)).problem()).contains("must be a path string");
    }

    @Test
    void aPreparedBuiltinDeclaresEveryPathItself() throws Exception {
        ToolFacts f = ToolFacts.read(ToolOrigin.BUILTIN, "Edit", new Prepared(), ref(Builtin.KIND, "EDIT"));
        assertThat(f.preparer().prepare(Map.of()).paths()).extracting(DeclaredPath::access)
                .containsExactly(DeclaredPath.Access.DELETE, DeclaredPath.Access.CREATE);
        assertThatThrownBy(() -> ToolFacts.read(ToolOrigin.BUILTIN, "Edit", new Prepared(), ref(Builtin.KIND, "EDIT",
                Tool.PATH_ARG, "path", Tool.PATH_KIND, "WRITABLE_FILE"))).hasMessageContaining("twice");
    }

    @Test
    void aBuiltinWithoutAKindIsRefused() {
        assertThatThrownBy(() -> ToolFacts.read(ToolOrigin.BUILTIN, "Read", PLAIN, ref()))
                .isInstanceOf(ToolFacts.Refusal.class).hasMessageContaining("declares no kind");
        assertThatThrownBy(() -> ToolFacts.read(ToolOrigin.BUILTIN, "Read", PLAIN, ref(Builtin.KIND, "read")))
                .isInstanceOf(ToolFacts.Refusal.class);
    }

    @ParameterizedTest
    @EnumSource(value = ToolKind.class, names = {"PLUGIN", "MCP"})
    void noBuiltinMayDeclareAnOriginsKind(ToolKind kind) {
        assertThatThrownBy(() -> ToolFacts.read(ToolOrigin.BUILTIN, "Read", PLAIN, ref(Builtin.KIND, kind.name())))
                .isInstanceOf(ToolFacts.Refusal.class).hasMessageContaining("origin");
    }

    /** A plugin or MCP tool cannot declare itself a READ tool, a parallel one, aliases or paths. */
    @Test
    void pluginAndMcpFactsComeFromTheOriginWhateverTheyDeclare() throws Exception {
        ServiceReference<?> claims = ref(Builtin.KIND, "READ", Builtin.PARALLEL, true, Builtin.SOLO, true,
                Builtin.ALIASES, new String[] {"path=file_path"}, Tool.PATH_ARG, "path", Tool.PATH_KIND,
                "EXISTING_FILE");
        for (ToolOrigin origin : List.of(ToolOrigin.PLUGIN, ToolOrigin.MCP)) {
            ToolFacts f = ToolFacts.read(origin, "x", new Prepared(), claims);
            assertThat(f.kind()).isEqualTo(origin == ToolOrigin.PLUGIN ? ToolKind.PLUGIN : ToolKind.MCP);
            assertThat(f.aliases()).isEmpty();
            assertThat(f.parallel()).isFalse();
            assertThat(f.solo()).isFalse();
            assertThat(f.preparer().prepare(Map.of("path", "/etc/passwd")).paths()).isEmpty();
        }
    }

    @Test
    void aMalformedAliasIsRefused() {
        for (String bad : Arrays.asList("path", "path=file_path=x", "=x", "path=path")) {
            assertThatThrownBy(() -> ToolFacts.read(ToolOrigin.BUILTIN, "Read", PLAIN, ref(Builtin.KIND, "READ",
                    Builtin.ALIASES, new String[] {bad}))).as(bad).isInstanceOf(ToolFacts.Refusal.class);
        }
    }

    @Test
    void everyKindHasAUniqueSlug() {
        assertThat(Arrays.stream(ToolKind.values()).map(ToolKind::slug).distinct()).hasSize(ToolKind.values().length);
        assertThat(ToolKind.SUBMIT_PLAN.slug()).isEqualTo("submit-plan");
    }
}
