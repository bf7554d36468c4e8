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
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.registry.ToolRegistry;
import pi.host.spi.Builtin;

class CatalogWarmUpTest {

    private static final ToolProvider TOOL = Registered.provider("{\"type\":\"object\"}", call -> ToolResult.ok("ran"));

    /** Pins that the schema validator's set-up does not compete with the first answer: it starts after it. */
    @Test
    void theSchemaValidatorIsSetUpAfterTheFirstAnswerNotBeforeIt() {
        FirstAnswer first = new FirstAnswer();
        Catalog catalog = new Catalog(Registered.registry(), first);
        assertThat(catalog.validatorReady()).as("nothing set up before the first answer").isFalse();
        first.answered();
        await().atMost(Duration.ofSeconds(30)).until(catalog::validatorReady);
    }

    /**
     * Pins that the catalog's warm-up describes no tool while a tool call runs (the call describes its own),
     * and still describes every tool once the call has ended; and round grep11: the validator is set up
     * right after the first answer even while a call runs (a session's first call needs it).
     */
    @Test
    void theWarmUpDescribesNoToolWhileACallRunsAndAllOnceItEnded() {
        FirstAnswer first = new FirstAnswer();
        ToolRegistry registry = Registered.registry();
        for (String name : List.of("Read", "Grep", "Glob")) {
            Registered.register(registry, "pi.host.tools", TOOL, Tool.NAME, name, Tool.RISK, "low", Builtin.KIND, "READ");
        }
        assertThat(registry.all()).hasSize(3);
        Catalog catalog = new Catalog(registry, first);
        first.callStarted();
        first.answered();
        await().atMost(Duration.ofSeconds(30)).until(catalog::validatorReady);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofMillis(900)).until(() -> catalog.describedCount() == 0);
        assertThat(catalog.metaSchemaLoads()).as("the validator's first use checks nothing against a meta-schema").isZero();
        first.callEnded();
        await().atMost(Duration.ofSeconds(30)).until(() -> catalog.describedCount() == 3);
    }
}
