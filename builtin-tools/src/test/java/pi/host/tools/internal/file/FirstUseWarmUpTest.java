package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
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

    @Test
    void startsTheHostPathRgOnceAndLocatesIt() {
        // rg on this JVM's PATH, looked up as Rg does (the test runs wherever the build does: with or without rg)
        Optional<Path> onPath = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty()).map(d -> Path.of(d, "rg"))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
        assertThat(Rg.warmUp()).as("rg --version ran").isEqualTo(onPath.isPresent());
        if (onPath.isPresent()) {
            assertThat(Rg.locate()).as("the rg a call then runs").isEqualTo(onPath);
        }
    }
}
