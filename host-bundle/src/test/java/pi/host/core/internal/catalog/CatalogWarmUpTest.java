package pi.host.core.internal.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import pi.host.core.internal.info.FirstAnswer;
import pi.host.core.internal.registry.Registered;

class CatalogWarmUpTest {

    /** Pins that the schema validator's set-up does not compete with the first answer: it starts after it. */
    @Test
    void theSchemaValidatorIsSetUpAfterTheFirstAnswerNotBeforeIt() {
        FirstAnswer first = new FirstAnswer();
        Catalog catalog = new Catalog(Registered.registry(), first);
        assertThat(catalog.validatorReady()).as("nothing set up before the first answer").isFalse();
        first.answered();
        await().atMost(Duration.ofSeconds(30)).until(catalog::validatorReady);
    }
}
