package pi.host.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The one tool pipeline on a no-op plugin tool, audit on, against a direct call of the same
 * provider in the same run (issue "Host core", Must show).
 *
 * <ul>
 * <li>{@code pipeline}: one {@code tools.execute} through the host's in-process RpcEndpoint, all of it
 * on the benchmark's thread ({@code RpcConnection.receiveOnCallingThread}, no transport and no
 * thread hand-off of the RPC layer): JSON-RPC parse and validation, session lookup, catalog, mode
 * matrix, aliases and JSON Schema, policy, admission, the tool body, the audit row's journal write
 * (the copier's work on its own thread is in the CPU figure, not on the call's path), {@code tool.completed} serialized to
 * every connection, the response serialized and handed to the client's sink. Not in it: a line
 * transport (stdio read and write, the reader's hand-off; {@code bench/rpc.sh} measures those).</li>
 * <li>{@code direct}: the provider's {@code execute} with a call object built once.</li>
 * <li>{@code pipelineThroughput}: {@code pipeline} from two threads (one connection each), calls/s.</li>
 * </ul>
 *
 * The host runs in the fork's JVM exactly as the launcher starts it (EmbeddedHost). After each
 * trial the audit rows of the benchmark's session are counted in the SQLite file and compared with
 * the calls made; the figures go to stdout and, with {@code -Dpi.bench.report=DIR}, to a file the
 * summary (BenchMain) reads.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PipelineBenchmark {

    /** The host, one per fork, and the session all calls run in. */
    @State(Scope.Benchmark)
    public static class Host {
        EmbeddedHost host;
        String sessionId;
        Supplier<Object> direct;
        /** Calls answered ok outside the clients (setup). */
        long setupCalls;
        /** Every thread's client; JMH tears the Host down before the clients, so it sums them itself. */
        final Queue<RpcClient> clients = new ConcurrentLinkedQueue<>();
        AuditInsert auditInsert;
        /** Process CPU time and calls at the start of the current iteration. */
        private long cpuAtStart;
        private long callsAtStart;
        /** Process CPU time (all threads) per call in the last iteration, µs; NaN before one ran. */
        double cpuPerCallMicros = Double.NaN;

        @Setup(Level.Trial)
        public void start() throws Exception {
            host = new EmbeddedHost();
            direct = host.direct();
            try (RpcClient setup = new RpcClient(host, "setup")) {
                sessionId = setup.createSession(host.projectRoot().toString());
                // the tool appears asynchronously (DS whiteboard): call until it answers ok
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (true) {
                    try {
                        setup.activate(sessionId, EmbeddedHost.TOOL);
                        setup.execute(sessionId);
                        break;
                    } catch (IllegalStateException notYet) {
                        if (System.nanoTime() > deadline) {
                            throw notYet;
                        }
                        EmbeddedHost.sleep(20);
                    }
                }
                setupCalls = 1; // setup.execute succeeded exactly once
            }
        }

        @Setup(Level.Iteration)
        public void markIteration() {
            cpuAtStart = processCpuNanos();
            callsAtStart = clientCalls();
        }

        /**
         * CPU per call: less sensitive than wall time to other processes taking the CPUs, though it
         * also counts the JIT, GC and JMH's own threads.
         */
        @TearDown(Level.Iteration)
        public void accountIteration() {
            long calls = clientCalls() - callsAtStart;
            if (calls > 0) {
                cpuPerCallMicros = (processCpuNanos() - cpuAtStart) / 1000.0 / calls;
            }
        }

        private long clientCalls() {
            long n = 0;
            for (RpcClient c : clients) {
                n += c.calls();
            }
            return n;
        }

        private static long processCpuNanos() {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
        }

        @TearDown(Level.Trial)
        public void stop(BenchmarkParams params) throws Exception {
            try {
                long made = setupCalls + clientCalls();
                // rows reach SQLite from the audit journal moments after their calls answer; stopping the
                // host copies the rest, so this also checks that a clean stop loses none
                host.stop();
                long rows = host.auditRows(sessionId);
                String timings = host.auditTimings(sessionId);
                String name = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
                String line = "audit check " + name + ": calls answered ok " + made + ", audit rows (ok) " + rows
                        + (made == rows ? " (every call audited)" : " (MISMATCH)");
                System.out.println();
                System.out.println(line);
                System.out.println("audit rows' own timings (medians): " + timings);
                String cpu = Double.isNaN(cpuPerCallMicros) ? "-" : String.format("%.1f", cpuPerCallMicros);
                System.out.println("process CPU per call, last iteration: " + cpu + " µs");
                String dir = System.getProperty("pi.bench.report");
                if (dir != null) {
                    Files.writeString(Path.of(dir).resolve(name + ".properties"),
                            "calls=" + made + "\nauditRows=" + rows + "\ntimings=" + timings + "\ncpuPerCallMicros=" + cpu + "\n", StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                System.out.println("audit check failed: " + e);
            } finally {
                if (auditInsert != null) {
                    auditInsert.close();
                }
                host.close();
            }
        }
    }

    /** One connection per benchmark thread. */
    @State(Scope.Thread)
    public static class Client {
        RpcClient rpc;

        @Setup(Level.Trial)
        public void connect(Host h) {
            rpc = new RpcClient(h.host, "c" + Thread.currentThread().getId() + "_");
            h.clients.add(rpc);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public String pipeline(Host h, Client c) {
        return c.rpc.execute(h.sessionId);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public Object direct(Host h) {
        return h.direct.get();
    }

    /**
     * Cost attribution, not a goal: a JSON-RPC round trip of the cheapest method there is
     * ({@code tools.abort} of a call that does not exist): parse, validate and serialize. It is an
     * inline method, answered on the calling thread (it was so before the client itself ran requests
 * on its thread, too).
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public String rpcRoundTrip(Host h, Client c) {
        return c.rpc.abort(h.sessionId);
    }

    /**
     * Cost attribution, not a goal: one audit row written the way the host's AuditStore writes it
     * (statements prepared once, BEGIN IMMEDIATE ... COMMIT, WAL, synchronous=NORMAL), into the host's own
     * database file, from the benchmark's own connection.
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public long auditInsert(Host h) throws Exception {
        AuditInsert a = h.auditInsert;
        if (a == null) {
            a = h.auditInsert = new AuditInsert(h.host.databaseFile());
        }
        return a.insert();
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Threads(2)
    @Warmup(iterations = 2, time = 3)
    @Measurement(iterations = 1, time = 10)
    public String pipelineThroughput(Host h, Client c) {
        return c.rpc.execute(h.sessionId);
    }
}
