package pi.host.core.internal.delegation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.registry.Registered;
import pi.host.core.internal.store.SessionRecord;

class SubagentsWarmUpTest {

    @TempDir
    Path dataDir;

    /** Pins that parsing the shipped definitions (the YAML parser's first use) waits for the first answer. */
    @Test
    void theShippedDefinitionsAreParsedAfterTheFirstAnswerNotBeforeIt() {
        FirstAnswer first = new FirstAnswer();
        Subagents subagents = new Subagents(dataDir.resolve(Subagents.USER_FOLDER), new Catalog(Registered.registry()), first);
        assertThat(subagents.loaded()).as("nothing parsed before the first answer").isFalse();
        first.answered();
        await().atMost(Duration.ofSeconds(30)).until(subagents::loaded);
    }

    /** Pins that a call needing the definitions before the warm-up ran gets them all, not an empty set. */
    @Test
    void aCallBeforeTheFirstAnswerParsesTheShippedDefinitionsItself() {
        Subagents subagents = new Subagents(dataDir.resolve(Subagents.USER_FOLDER), new Catalog(Registered.registry()),
                new FirstAnswer());
        SessionRecord temporary = new SessionRecord("s1", null, dataDir.toString(), false, "agent", "ask", false, 1, 1, null);

        Definitions definitions = subagents.definitions(temporary);

        assertThat(definitions.all()).extracting(SubagentDefinition::name)
                .containsExactlyElementsOf(DefinitionLoader.withShippedBuiltins().load(dataDir.resolve("none"), null)
                        .all().stream().map(SubagentDefinition::name).toList())
                .isNotEmpty();
        assertThat(subagents.loaded()).isTrue();
    }
}
