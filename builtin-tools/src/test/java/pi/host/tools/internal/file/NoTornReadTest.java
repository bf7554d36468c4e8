package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ToolResult;

/**
 * Reads racing writes of the same file, without the pipeline's path mutex: the rename of the
 * atomic write alone means a Read sees the old or the new content whole, and its tag is the tag of
 * what it showed.
 */
class NoTornReadTest {

    @TempDir
    Path tmp;

    @Test
    void readsRacingWritesSeeOneWholeVersion() throws Exception {
        Fixture fx = new Fixture(tmp);
        String a = "a\n".repeat(2000);
        String b = "b\n".repeat(2000);
        fx.write("f.txt", a);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean stop = new AtomicBoolean();
        try {
            Future<?> writer = pool.submit(() -> {
                for (int i = 0; i < 60; i++) {
                    fx.write("f.txt", i % 2 == 0 ? b : a);
                }
                stop.set(true);
                return null;
            });
            Runnable reader = () -> {
                while (!stop.get()) {
                    try {
                        ToolResult r = fx.read("f.txt", "limit", 100_000);
                        String text = r.text().get(0);
                        boolean allA = !text.contains("\tb\n");
                        boolean allB = !text.contains("\ta\n");
                        assertThat(allA || allB).as("torn read").isTrue();
                        assertThat(Fixture.tag(r)).isEqualTo(Tags.tag(Tags.digest((allA ? a : b).getBytes())));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            };
            Future<?> r1 = pool.submit(reader);
            Future<?> r2 = pool.submit(reader);
            writer.get();
            r1.get();
            r2.get();
        } finally {
            pool.shutdownNow();
        }
    }
}
