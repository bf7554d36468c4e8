package pi.host.mcpserver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    /** Every round goes the whole path (a round that failed would stop the warm-up short of its count). */
    @Test
    void everyRoundRunsTheWholePath() {
        assertThat(WarmUp.run(new JacksonMcpJsonMapper(new ObjectMapper()), 20, TimeUnit.MINUTES.toNanos(1))).isEqualTo(20);
    }
}
