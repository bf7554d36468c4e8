package pi.host.core.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.spi.Builtin;

/** Builtin names that belong to one host bundle: that bundle registers those only, and nobody else does. */
class BuiltinReservationTest {

    private static final ToolProvider TOOL = new ToolProvider() {
        @Override
        public String description() {
            return "d";
        }

        @Override
        public String inputSchema() {
            return "{\"type\":\"object\"}";
        }

        @Override
        public ToolResult execute(ToolCall call) {
            return ToolResult.ok("");
        }
    };

    private static void register(ToolRegistry registry, String bundle, String name, String kind) {
        Registered.register(registry, bundle, TOOL, Tool.NAME, name, Tool.RISK, "low", Builtin.KIND, kind);
    }

    /** Pins the Jev bundle's reservation: JevClassify comes from pi.host.jev, and pi.host.jev gives nothing else. */
    @Test
    void jevClassifyComesOnlyFromTheJevBundleAndTheJevBundleOnlyGivesJevClassify() {
        ToolRegistry registry = Registered.registry();
        register(registry, "pi.host.tools", "JevClassify", "JEV");
        register(registry, "pi.host.core", "JevClassify", "JEV");
        register(registry, "pi.host.plugins", "JevClassify", "JEV");
        register(registry, "pi.host.jev", "Read", "READ");
        register(registry, "pi.host.jev", "Bash", "EXEC");
        assertThat(registry.all()).isEmpty();
        assertThat(registry.diagnostics()).extracting(ToolRegistry.Diagnostic::reason).containsExactly(
                "'JevClassify' is reserved for the host bundle pi.host.jev",
                "'JevClassify' is reserved for the host bundle pi.host.jev",
                "bundle pi.host.plugins may register only [PluginCheck, PluginPack, PluginScaffold] as builtins",
                "bundle pi.host.jev may register only [JevClassify] as builtins",
                "bundle pi.host.jev may register only [JevClassify] as builtins");
        register(registry, "pi.host.jev", "JevClassify", "JEV");
        assertThat(registry.find("JevClassify")).isPresent();
    }

    @Test
    void aThirdPartyBundleNamedLikeTheJevBundleGetsNothing() {
        ToolRegistry registry = new ToolRegistry(new pi.host.core.internal.events.HostEvents(pi.host.core.internal.info.StartupGate.open()),
                pi.host.core.internal.origin.BundleOrigin.of("test:pi.host.core"));
        register(registry, "pi.host.jev", "JevClassify", "JEV");
        assertThat(registry.all()).isEmpty();
        assertThat(registry.diagnostics()).singleElement().satisfies(d -> assertThat(d.reason())
                .contains("is not one the launcher installed from the distribution"));
    }

    @Test
    void pluginToolingStaysWithThePluginRuntime() {
        ToolRegistry registry = Registered.registry();
        register(registry, "pi.host.tools", "PluginCheck", "PLUGIN_TOOLING");
        assertThat(registry.all()).isEmpty();
        assertThat(registry.diagnostics()).singleElement().satisfies(d -> assertThat(d.reason())
                .isEqualTo("'PluginCheck' is reserved for the host bundle pi.host.plugins"));
    }
}
