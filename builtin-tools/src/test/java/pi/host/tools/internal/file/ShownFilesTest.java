package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.spi.FileInfo;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;

class ShownFilesTest {

    @TempDir
    Path tmp;

    @Test
    void filesComeInOrderAndALinkABinaryOrAMissingFileIsNotShown() throws IOException {
        Fixture fx = new Fixture(tmp);
        fx.file("a.txt", "one\ntwo\n");
        fx.file("bin.dat", "x\0y\n");
        Files.createSymbolicLink(fx.ws.resolve("link.txt"), fx.ws.resolve("a.txt"));
        fx.file("z.txt", "last");
        PinnedDir root = fx.files.pin(fx.ws);
        List<String> rels = new ArrayList<>(List.of("a.txt", "bin.dat", "link.txt", "gone.txt", "z.txt"));
        rels.add(null); // not below the root
        for (int i = 0; i < ShownFiles.AHEAD; i++) {
            rels.add("a.txt"); // more than are read ahead at once
        }
        rels.add("z.txt");
        try (ShownFiles shown = new ShownFiles(root, rels, () -> false)) {
            ShownFiles.Shown a = shown.next();
            assertThat(a.lines().count()).isEqualTo(2);
            assertThat(a.lines().line(2)).isEqualTo("two");
            assertThat(a.digest()).isEqualTo(Tags.digest("one\ntwo\n".getBytes(StandardCharsets.UTF_8)));
            assertThat(shown.next()).as("binary").isNull();
            assertThat(shown.next()).as("a link, not followed").isNull();
            assertThat(shown.next()).as("missing").isNull();
            assertThat(new String(shown.next().bytes(), StandardCharsets.UTF_8)).isEqualTo("last");
            assertThat(shown.next()).as("not below the root").isNull();
            for (int i = 0; i < ShownFiles.AHEAD; i++) {
                assertThat(shown.next().lines().line(1)).isEqualTo("one");
            }
            assertThat(shown.next().lines().line(1)).isEqualTo("last");
        } finally {
            root.close();
        }
    }

    /** Pins that no read ahead outlives the pinned root: closing waits for the reads under way. */
    @Test
    void closeWaitsForAReadUnderWayBeforeTheRootMayBeClosed() throws Exception {
        Fixture fx = new Fixture(tmp);
        fx.file("a.txt", "one\n");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        PinnedDir real = fx.files.pin(fx.ws);
        PinnedDir slow = new Delaying(real, entered, release);
        ShownFiles shown = new ShownFiles(slow, List.of("a.txt", "a.txt"), () -> false);
        assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
        AtomicBoolean closed = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            shown.close();
            closed.set(true);
        });
        closer.start();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !closed.get());
        release.countDown();
        await().atMost(Duration.ofSeconds(30)).untilTrue(closed);
        real.close();
    }

    /** The real pinned root, its first open held until released. */
    private record Delaying(PinnedDir real, CountDownLatch entered, CountDownLatch release) implements PinnedDir {
        @Override public Path path() { return real.path(); }
        @Override public String relative(Path absolute) { return real.relative(absolute); }
        @Override public FileInfo stat(String relative) throws IOException { return real.stat(relative); }
        @Override public PinnedFile open(String relative) throws IOException {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            return real.open(relative);
        }
        @Override public PinnedDir dir(String relative, boolean create) throws IOException { return real.dir(relative, create); }
        @Override public void write(String name, byte[] bytes, String mode, boolean replace) throws IOException {
            real.write(name, bytes, mode, replace);
        }
        @Override public void delete(String relative) throws IOException { real.delete(relative); }
        @Override public void close() { real.close(); }
    }
}
