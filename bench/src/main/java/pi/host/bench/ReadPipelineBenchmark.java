package pi.host.bench;

import java.util.concurrent.TimeUnit;
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
 * One {@code tools.execute} of the builtin Read on a small file, through the whole pipeline in the
 * embedded host, on the benchmark's thread (as {@code PipelineBenchmark.pipeline}, with Read instead
 * of the no-op tool). Not in the default run; to compare two builds, run it once on each assembly
 * ({@code -jvmArgsAppend -Dpi.bench.assembly=DIR}, e.g. a build of the base commit) in one window.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ReadPipelineBenchmark {

    /** The host and a session rooted at its project folder (which holds small.txt). */
    @State(Scope.Benchmark)
    public static class Host {
        EmbeddedHost host;
        RpcClient client;
        String sessionId;

        @Setup(Level.Trial)
        public void start() throws Exception {
            host = new EmbeddedHost();
            client = new RpcClient(host, "r");
            sessionId = client.createSession(host.projectRoot().toRealPath().toString());
            client.read(sessionId, "small.txt");
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            client.close();
            host.close();
        }
    }

    @Benchmark
    public String read(Host h) {
        return h.client.read(h.sessionId, "small.txt");
    }
}
