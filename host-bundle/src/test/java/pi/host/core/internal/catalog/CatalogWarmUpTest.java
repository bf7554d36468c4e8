package pi.host.core.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.info.StartupGate;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolOrigin;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.spi.Builtin;

class CatalogWarmUpTest {

    private static final ToolProvider TOOL = Registered.provider("{\"type\":\"object\"}", call -> ToolResult.ok("ran"));

    /** Pins that the schema validator's set-up does not compete with the first answer: it starts after it. */
    @Test
    void theSchemaValidatorIsSetUpAfterTheFirstAnswerNotBeforeIt() {
        FirstAnswer first = new FirstAnswer();
        Catalog catalog = new Catalog(Registered.registry(), first, StartupGate.open());
        assertThat(catalog.validatorReady()).as("nothing set up before the first answer").isFalse();
        first.answered();
        await().atMost(Duration.ofSeconds(30)).until(catalog::validatorReady);
    }

    /**
     * Pins round grep11: right after the first answer the builtins' schemas are compiled, even while a call
     * runs (a session's first call needs its own); a plugin's (checked against its meta-schema, far more work)
     * waits until the calls pause, and is still described once the call has ended.
     */
    @Test
    void theBuiltinsAreDescribedAtOnceThePluginsOnlyOnceTheCallsPaused() {
        FirstAnswer first = new FirstAnswer();
        ToolRegistry registry = Registered.registry();
        for (String name : List.of("Read", "Grep")) {
            Registered.register(registry, "pi.host.tools", TOOL, Tool.NAME, name, Tool.RISK, "low", Builtin.KIND, "READ");
        }
        Registered.register(registry, "pi.host.plugins", TOOL, Tool.NAME, "scan", Tool.RISK, "low",
                ToolRegistry.PLUGIN_ID, "todo-scan");
        assertThat(registry.all()).extracting(RegisteredTool::origin)
                .containsExactlyInAnyOrder(ToolOrigin.BUILTIN, ToolOrigin.BUILTIN, ToolOrigin.PLUGIN);
        Catalog catalog = new Catalog(registry, first, StartupGate.open());
        first.callStarted();
        first.answered();
        await().atMost(Duration.ofSeconds(30)).until(() -> catalog.describedCount() == 2);
        assertThat(catalog.validatorReady()).isTrue();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofMillis(900)).until(() -> catalog.describedCount() == 2);
        assertThat(catalog.metaSchemaLoads()).as("no plugin schema checked while the call runs").isZero();
        first.callEnded();
        await().atMost(Duration.ofSeconds(30)).until(() -> catalog.describedCount() == 3);
    }
}
