package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServeFastPathTest {

    private static String[] args(String line) {
        return line.isEmpty() ? new String[0] : line.split(" ");
    }

    @Test
    void recognisesThePlainServeLines() {
        assertThat(ServeFastPath.parse(args("serve --stdio"))).contains(
                new ServeFastPath.Options(null, ServeFastPath.DEFAULT_MAX_REQUEST_BYTES));
        assertThat(ServeFastPath.parse(args("serve --data-dir /d --stdio --max-request-bytes 2048"))).contains(
                new ServeFastPath.Options(Path.of("/d"), 2048));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "serve", "--version", "serve --stdio --stdio", "serve --stdio --no-such-option",
        "serve --stdio --data-dir", "serve --stdio --data-dir --stdio", "serve --stdio --max-request-bytes 10",
        "serve --stdio --max-request-bytes x", "serve --stdio --help", "--data-dir /d serve --stdio",
        "serve --stdio --data-dir=/d", "serve --stdio extra"})
    void leavesEverythingElseToPicocli(String line) {
        assertThat(ServeFastPath.parse(args(line))).isEmpty();
    }
}
