package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FirstUseWarmUpTest {

    @Test
    void warmsUpOnADaemonThreadThatEndsByItself() {
        FirstUseWarmUp w = new FirstUseWarmUp();
        w.activate();
        Thread t = w.thread();
        assertThat(t.isDaemon()).as("never keeps the JVM alive").isTrue();
        assertThat(t.getName()).isEqualTo("pi-file-tools-warm-up");
        await().atMost(Duration.ofSeconds(30)).until(() -> !t.isAlive());
    }

    @Test
    void indexesEveryLineOfEveryRound() {
        assertThat(FirstUseWarmUp.run()).isEqualTo((long) FirstUseWarmUp.ROUNDS * (FirstUseWarmUp.BLOCK / 80 + 1));
    }
}
