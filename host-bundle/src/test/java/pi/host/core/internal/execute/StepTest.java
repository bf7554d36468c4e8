package pi.host.core.internal.execute;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The lifecycle every step's unit test shares: a fresh {@link StepKit} under a temporary folder per test. */
abstract class StepTest {

    @TempDir
    Path tmp;
    StepKit kit;

    @BeforeEach
    void openKit() throws Exception {
        kit = new StepKit(tmp);
    }

    @AfterEach
    void closeKit() {
        kit.close();
    }
}
