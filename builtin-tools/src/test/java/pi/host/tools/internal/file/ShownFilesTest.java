package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
        List<String> rels = new ArrayList<>(List.of("a.txt", "bin.dat", "link.txt", "gone.txt", "z.txt"));
        rels.add("../outside.txt"); // not below the root
        for (int i = 0; i < ShownFiles.AHEAD; i++) {
            rels.add("a.txt"); // more than are read ahead at once
        }
        rels.add("z.txt");
        try (ShownFiles shown = new ShownFiles(() -> fx.files.pin(fx.ws), fx.ws, 0, () -> false)) {
            shown.inOrder(rels, rel -> null);
            ShownFiles.Shown a = shown.next();
            assertThat(a.count()).isEqualTo(2);
            assertThat(a.line().apply(2)).isEqualTo("two");
            assertThat(a.digest()).isEqualTo(Tags.digest("one\ntwo\n".getBytes(StandardCharsets.UTF_8)));
            assertThat(shown.next()).as("binary").isNull();
            assertThat(shown.next()).as("a link, not followed").isNull();
            assertThat(shown.next()).as("missing").isNull();
            assertThat(new String(shown.next().bytes(), StandardCharsets.UTF_8)).isEqualTo("last");
            assertThat(shown.next()).as("not below the root").isNull();
            for (int i = 0; i < ShownFiles.AHEAD; i++) {
                assertThat(shown.next().line().apply(1)).isEqualTo("one");
            }
            assertThat(shown.next().line().apply(1)).isEqualTo("last");
        }
    }

    /**
     * Pins that a read begun while the search ran is the one taken, keeping only the shown lines' text
     * (each with its context) and not the bytes, and that the others are read in turn.
     */
    @Test
    void aFileReadEarlyIsTakenInItsTurnWithItsShownLinesOnly() throws IOException {
        Fixture fx = new Fixture(tmp);
        fx.file("a.txt", "one\n");
        fx.file("b.txt", "two\n");
        fx.file("c.txt", "l1\nl2\nl3\nl4\nl5\n");
        Map<String, BitSet> matching = Map.of("a.txt", lines(1), "b.txt", lines(1), "c.txt", lines(4));
        Counting counting = new Counting(fx.files.pin(fx.ws));
        try (ShownFiles shown = new ShownFiles(() -> counting, fx.ws, 1, () -> false)) {
            shown.early("c.txt", matching.get("c.txt"));
            shown.early("c.txt", matching.get("c.txt")); // one read a file
            shown.early("../outside.txt", lines(1)); // not below the root: never read
            await().atMost(Duration.ofSeconds(30)).until(() -> counting.opens.get() == 1);
            shown.inOrder(List.of("a.txt", "b.txt", "c.txt"), matching::get);
            assertThat(shown.next().line().apply(1)).isEqualTo("one");
            assertThat(shown.next().line().apply(1)).isEqualTo("two");
            ShownFiles.Shown c = shown.next();
            assertThat(counting.opens.get()).as("c.txt read once, early").isEqualTo(3);
            assertThat(c.bytes()).as("not kept once the lines are known").isNull();
            assertThat(c.count()).isEqualTo(5);
            assertThat(c.digest()).isEqualTo(Tags.digest("l1\nl2\nl3\nl4\nl5\n".getBytes(StandardCharsets.UTF_8)));
            assertThat(c.line().apply(3)).isEqualTo("l3");
            assertThat(c.line().apply(4)).isEqualTo("l4");
            assertThat(c.line().apply(5)).isEqualTo("l5");
            assertThat(c.line().apply(2)).as("outside the context").isNull();
        }
        assertThat(counting.closed).as("the root closed with the reads").isTrue();
    }

    /** Pins that an early read given fewer lines than the search found in the end is not the one shown. */
    @Test
    void anEarlyReadOfOtherLinesIsReadAgain() throws IOException {
        Fixture fx = new Fixture(tmp);
        fx.file("c.txt", "l1\nl2\nl3\n");
        Counting counting = new Counting(fx.files.pin(fx.ws));
        try (ShownFiles shown = new ShownFiles(() -> counting, fx.ws, 0, () -> false)) {
            shown.early("c.txt", lines(1));
            shown.inOrder(List.of("c.txt"), rel -> lines(1, 3));
            ShownFiles.Shown c = shown.next();
            assertThat(c.line().apply(1)).isEqualTo("l1");
            assertThat(c.line().apply(3)).isEqualTo("l3");
            assertThat(counting.opens.get()).isEqualTo(2);
        }
    }

    /** Pins the early reads' bound: past it a file is read in its turn, whole, not dropped. */
    @Test
    void pastTheEarlyBoundAFileIsReadInItsTurn() throws IOException {
        Fixture fx = new Fixture(tmp);
        byte[] big = new byte[(int) ShownFiles.EARLY_BYTES];
        Arrays.fill(big, (byte) 'x');
        Files.write(fx.ws.resolve("big.txt"), big);
        fx.file("small.txt", "small\n");
        Counting counting = new Counting(fx.files.pin(fx.ws));
        try (ShownFiles shown = new ShownFiles(() -> counting, fx.ws, 0, () -> false)) {
            shown.early("big.txt", lines(1));
            await().atMost(Duration.ofSeconds(30)).until(() -> counting.opens.get() == 1);
            shown.early("small.txt", lines(1)); // the bound is taken: not begun
            shown.inOrder(List.of("big.txt", "small.txt"), rel -> lines(1));
            assertThat(shown.next().line().apply(1)).hasSize(big.length);
            assertThat(shown.next().line().apply(1)).isEqualTo("small");
            assertThat(counting.opens.get()).isEqualTo(2);
        }
    }

    private static BitSet lines(int... numbers) {
        BitSet b = new BitSet();
        for (int n : numbers) {
            b.set(n);
        }
        return b;
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
        ShownFiles shown = new ShownFiles(() -> slow, fx.ws, 0, () -> false);
        shown.early("a.txt", lines(1));
        shown.inOrder(List.of("a.txt", "a.txt"), rel -> lines(1));
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
    }

    /** The real pinned root, counting its opens and whether it was closed. */
    private static final class Counting implements PinnedDir {
        final PinnedDir real;
        final AtomicInteger opens = new AtomicInteger();
        volatile boolean closed;

        Counting(PinnedDir real) {
            this.real = real;
        }

        @Override public Path path() { return real.path(); }
        @Override public String relative(Path absolute) { return real.relative(absolute); }
        @Override public FileInfo stat(String relative) throws IOException { return real.stat(relative); }
        @Override public PinnedFile open(String relative) throws IOException {
            opens.incrementAndGet();
            return real.open(relative);
        }
        @Override public PinnedDir dir(String relative, boolean create) throws IOException { return real.dir(relative, create); }
        @Override public void write(String name, byte[] bytes, String mode, boolean replace) throws IOException {
            real.write(name, bytes, mode, replace);
        }
        @Override public void delete(String relative) throws IOException { real.delete(relative); }
        @Override public void close() {
            closed = true;
            real.close();
        }
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
