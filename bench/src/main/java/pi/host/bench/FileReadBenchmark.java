package pi.host.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the race-free open (issue 13 item 5) adds to a Read: the Read tool's file open of a small file
 * (10 lines, about 480 bytes, like the RPC benchmark's), inside the embedded host, both ways in one run.
 * {@code plainOpen} (the reference) is how Read opened it before ({@code Files.newByteChannel} with
 * NOFOLLOW_LINKS, size, read, close); {@code pinnedOpen} is how it opens it now (the host's
 * PinnedFiles: the folder pinned by openat2 from {@code /}, the file opened below it with no link
 * followed, statx, read, close both). The difference is the per-Read cost of the change; compare it
 * with the warm stdio Read of {@code bench/rpc.sh}.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FileReadBenchmark {

    /** The host, and the file both opens read. */
    @State(Scope.Benchmark)
    public static class Host {
        EmbeddedHost host;
        Path file;
        Function<Path, Object> plain;
        Function<Path, Object> pinned;

        @Setup(Level.Trial)
        public void start() throws Exception {
            host = new EmbeddedHost();
            StringBuilder content = new StringBuilder();
            for (int i = 1; content.length() < 521 - 52; i++) {
                content.append("line ").append(i).append(": the quick brown fox jumps over the dog\n");
            }
            file = Files.writeString(host.projectRoot().toRealPath().resolve("read.txt"), content);
            plain = host.fileRead(false);
            pinned = host.fileRead(true);
            if (!plain.apply(file).equals(pinned.apply(file))) {
                throw new IllegalStateException("the two opens read different bytes");
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            host.close();
        }
    }

    @Benchmark
    public Object plainOpen(Host h) {
        return h.plain.apply(h.file);
    }

    @Benchmark
    public Object pinnedOpen(Host h) {
        return h.pinned.apply(h.file);
    }
}
