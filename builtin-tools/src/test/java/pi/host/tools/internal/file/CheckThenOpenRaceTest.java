package pi.host.tools.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolResult;
import pi.host.core.internal.paths.PathException;
import pi.host.core.internal.paths.PathResolver;
import pi.host.core.internal.paths.Resolution;

/**
 * Issue 13 item 5 pinned: the host's last path check and the tool's open were two steps, so a folder
 * exchanged with a link to an outside folder between them redirected a Write (and a Read) outside.
 * One thread exchanges {@code ws/d} with the link {@code ws/l -> outside} 10,000 times with
 * {@code renameat2(RENAME_EXCHANGE)} while Write, Edit (line ops and MV), Read and Grep of
 * {@code d/f.txt} run on paths the host resolved and re-checked as the pipeline does. The same race
 * with a plain open of the re-checked path is won by the attacker, so the test can fail.
 */
class CheckThenOpenRaceTest {

    static final int EXCHANGES = 10_000;
    /**
     * The control race runs until the attacker wins, at most this many exchanges: on a quiet machine
     * a few hundred suffice, on one with a load of 15 on 2 cores about one run in seven needs more
     * than 10,000 (the two threads are then rarely on a core at once).
     */
    static final int CONTROL_EXCHANGES = 100_000;
    /** Rounds each victim runs before the attacker starts. */
    static final int WARM_UP = 300;
    /**
     * Exchanges the attacker may run ahead per round of the first victim. It exchanges as fast as it
     * can (a burst outlasts a round's check and open), but without a bound the 10,000 exchanges can be
     * over before a victim is even scheduled on a busy machine; with it they are spread over at least
     * 250 rounds.
     */
    static final int EXCHANGES_PER_ROUND = 40;
    private static final int AT_FDCWD = -100;
    private static final int RENAME_EXCHANGE = 2;
    private static final String OUTSIDE = "OUTSIDE CONTENT\n";

    /** glibc's renameat2, for the attacker. */
    interface Exchange extends Library {
        int renameat2(int olddirfd, String oldpath, int newdirfd, String newpath, int flags);
    }

    private static final Exchange LIBC = Native.load("c", Exchange.class);

    @TempDir
    Path tmp;
    Fixture fx;
    Path outside;

    @BeforeEach
    void setUp() throws Exception {
        fx = new Fixture(tmp);
        outside = Files.createDirectories(tmp.resolve("outside")).toRealPath();
        Files.writeString(outside.resolve("f.txt"), OUTSIDE);
        fx.file("d/f.txt", "inside\n");
        Files.createSymbolicLink(fx.ws.resolve("l"), outside);
    }

    /** What the victims did while the folder was being exchanged. */
    static final class Tally {
        final AtomicInteger checked = new AtomicInteger(); // the host's checks passed: the tool ran
        final AtomicInteger succeeded = new AtomicInteger();
        final AtomicInteger deniedByTheOpen = new AtomicInteger(); // TOOL_DENIED from the pinned open
        final AtomicInteger outsideShown = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger(); // threw, which the pipeline answers TOOL_FAILED
    }

    interface Victim {
        /** One call on a path the host checked; true once the attacker has visibly won. */
        boolean run(ResolvedPath checked, int round, Tally tally) throws Exception;
    }

    @Test
    void noByteLandsOutsideAndNoReadShowsOutsideContentWhileTheFolderIsExchangedTenThousandTimes() throws Exception {
        GrepTool grep = new GrepTool(fx.provenance, fx.files, Optional.empty());
        String[] tag = {null};
        Victim writer = (p, round, t) -> {
            ToolResult r;
            switch (round % 4) {
                case 0 -> r = fx.execute(fx.write, p, "content", "inside " + round + "\n");
                case 1, 3 -> {
                    r = fx.execute(fx.read, p);
                    tag[0] = r.ok() ? Fixture.tag(r) : null;
                    shown(r, t);
                }
                default -> r = tag[0] == null ? null : fx.execute(fx.edit, p, "tag", tag[0],
                        "ops", round % 8 == 2 ? "PUT 1.=1:\n+edited " + round : "MV d/m" + round + ".txt");
            }
            count(r, t);
            return false;
        };
        Victim reader = (p, round, t) -> {
            ToolResult r = round % 2 == 0 ? fx.execute(fx.read, p)
                    : fx.execute(grep, p, "pattern", "OUTSIDE CONTEN[T]|inside|edited");
            shown(r, t);
            count(r, t);
            return false;
        };
        Tally writes = new Tally();
        Tally reads = new Tally();
        int exchanged = race(List.of(writer, reader), List.of(writes, reads), EXCHANGES);

        assertThat(exchanged).isEqualTo(EXCHANGES);
        assertThat(Files.readString(outside.resolve("f.txt"))).isEqualTo(OUTSIDE);
        try (Stream<Path> s = Files.list(outside)) {
            assertThat(s).containsExactly(outside.resolve("f.txt"));
        }
        assertThat(reads.outsideShown).hasValue(0);
        assertThat(writes.outsideShown).hasValue(0);
        // the race really ran: calls got through the host's checks and landed inside, and some of
        // them met the exchanged folder after the check, which only the pinned open refused
        assertThat(writes.succeeded.get() + reads.succeeded.get()).isGreaterThan(20);
        assertThat(writes.deniedByTheOpen.get() + reads.deniedByTheOpen.get()).isPositive();
        System.out.printf("exchanges %d; writer: %d checked, %d ok, %d denied by the open; reader: %d checked, %d ok,"
                + " %d denied by the open%n", exchanged, writes.checked.get(), writes.succeeded.get(),
                writes.deniedByTheOpen.get(), reads.checked.get(), reads.succeeded.get(), reads.deniedByTheOpen.get());
    }

    @Test
    void withAPlainOpenOfTheRecheckedPathTheAttackerWinsTheSameRace() throws Exception {
        Victim plain = (p, round, t) -> {
            try (OutputStream out = Files.newOutputStream(p.absolute())) {
                out.write("inside\n".getBytes(StandardCharsets.UTF_8));
            }
            t.succeeded.incrementAndGet();
            return !Files.readString(outside.resolve("f.txt")).equals(OUTSIDE);
        };
        Tally tally = new Tally();
        int exchanged = race(List.of(plain), List.of(tally), CONTROL_EXCHANGES);
        assertThat(Files.readString(outside.resolve("f.txt"))).as("the attacker's win").isEqualTo("inside\n");
        System.out.printf("a plain open lost the race after %d exchanges and %d checked writes%n", exchanged,
                tally.succeeded.get());
    }

    /**
     * Runs the victims on re-checked paths while the attacker exchanges; returns the exchanges done.
     * The victims first run {@link #WARM_UP} rounds with no attacker (so the JIT has compiled them and
     * the exchanges meet calls at full speed), then the attacker starts; each round of the first
     * victim lets it run {@link #EXCHANGES_PER_ROUND} further ahead. The others run as fast as they can.
     */
    private int race(List<Victim> victims, List<Tally> tallies, int exchanges) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(victims.size() + 1);
        AtomicBoolean over = new AtomicBoolean();
        CountDownLatch warm = new CountDownLatch(victims.size());
        Semaphore budget = new Semaphore(0);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int v = 0; v < victims.size(); v++) {
                Victim victim = victims.get(v);
                Tally tally = tallies.get(v);
                boolean gates = v == 0;
                running.add(pool.submit(() -> {
                    Tally ignored = new Tally();
                    for (int round = 0; !over.get(); round++) {
                        if (round == WARM_UP) {
                            warm.countDown();
                        }
                        if (gates && round >= WARM_UP) {
                            budget.release(EXCHANGES_PER_ROUND);
                        }
                        ResolvedPath p = checked("d/f.txt");
                        if (p == null) {
                            continue; // the host's own check saw the link: refused before the tool
                        }
                        Tally t = round < WARM_UP ? ignored : tally;
                        t.checked.incrementAndGet();
                        try {
                            if (victim.run(p, round, t)) {
                                over.set(true);
                            }
                        } catch (IOException e) {
                            // the pipeline's TOOL_FAILED: the file was moved away by an MV, say
                            t.failed.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            assertThat(warm.await(60, TimeUnit.SECONDS)).as("the victims warmed up").isTrue();
            Future<Integer> attacker = pool.submit(() -> {
                String d = fx.ws.resolve("d").toString();
                String l = fx.ws.resolve("l").toString();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                int n = 0;
                while (n < exchanges && !over.get()) {
                    if (!budget.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                        assertThat(System.nanoTime()).as("the race ends within a minute").isLessThan(deadline);
                        continue;
                    }
                    assertThat(LIBC.renameat2(AT_FDCWD, d, AT_FDCWD, l, RENAME_EXCHANGE)).isZero();
                    n++;
                }
                over.set(true);
                return n;
            });
            int exchanged = attacker.get(60, TimeUnit.SECONDS);
            for (Future<?> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
            return exchanged;
        } finally {
            over.set(true);
            pool.shutdownNow();
        }
    }

    /** Resolved and re-checked as the pipeline does; null when the host itself refuses it. */
    private ResolvedPath checked(String raw) {
        PathResolver resolver = new PathResolver(fx.ws, fx.scratch);
        try {
            Resolution r = resolver.resolve(raw, PathKind.WRITABLE_FILE);
            return r.outside() ? null : resolver.recheck(r, PathKind.WRITABLE_FILE);
        } catch (PathException e) {
            return null;
        }
    }

    private static void shown(ToolResult r, Tally t) {
        if (r.text().stream().anyMatch(s -> s.contains(OUTSIDE.strip()))) {
            t.outsideShown.incrementAndGet();
        }
    }

    private static void count(ToolResult r, Tally t) {
        if (r == null) {
            return;
        }
        if (r.ok()) {
            t.succeeded.incrementAndGet();
        } else if (r.errorCode() == ErrorCode.TOOL_DENIED) {
            t.deniedByTheOpen.incrementAndGet();
        }
    }
}
