package pi.host.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * {@code java -jar bench/target/benchmarks.jar [options]}: runs the pipeline benchmarks and prints
 * a summary with the overhead (pipeline p50 − direct p50) and the audited throughput, checked
 * against the goals. {@code java -jar bench/target/benchmarks.jar jmh ARGS} is plain JMH instead
 * (e.g. {@code jmh -l}, or one benchmark with a profiler).
 */
public final class BenchMain {

    static final double GOAL_OVERHEAD_P50_US = 25;
    static final double GOAL_THROUGHPUT = 20_000;

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("jmh")) {
            org.openjdk.jmh.Main.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        boolean quick = false;
        int seconds = 10;
        List<String> profilers = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--throughput-seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--prof" -> profilers.add(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("""
                            usage: java -jar bench/target/benchmarks.jar [--quick] [--throughput-seconds N] [--prof P]...
                                   java -jar bench/target/benchmarks.jar jmh [JMH options]
                              --quick                  1 s iterations, 2 warm-up + 3 measured (a smoke run)
                              --throughput-seconds N   length of the measured 2-thread throughput iteration (default 10)
                              --prof P                 a JMH profiler for every benchmark (e.g. stack, gc, jfr)""");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (try --help)");
            }
        }
        Path report = Files.createTempDirectory("pi-host-bench-report-");
        String prefix = PipelineBenchmark.class.getName() + ".";
        ChainedOptionsBuilder latency = new OptionsBuilder()
                .include(prefix + "(pipeline|direct|rpcRoundTrip|auditInsert)$")
                .jvmArgsAppend("-Dpi.bench.report=" + report, "-Dpi.bench.assembly=" + EmbeddedHost.assemblyDir());
        ChainedOptionsBuilder throughput = new OptionsBuilder()
                .include(prefix + "pipelineThroughput$")
                .measurementTime(TimeValue.seconds(seconds))
                .jvmArgsAppend("-Dpi.bench.report=" + report, "-Dpi.bench.assembly=" + EmbeddedHost.assemblyDir());
        if (quick) {
            latency.warmupIterations(2).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(3).measurementTime(TimeValue.seconds(1));
            throughput.warmupIterations(1).warmupTime(TimeValue.seconds(2));
        }
        for (String p : profilers) {
            String[] nameAndOptions = p.split(":", 2);
            latency.addProfiler(nameAndOptions[0], nameAndOptions.length > 1 ? nameAndOptions[1] : "");
            throughput.addProfiler(nameAndOptions[0], nameAndOptions.length > 1 ? nameAndOptions[1] : "");
        }
        Instant started = Instant.now();
        Map<String, RunResult> results = new HashMap<>();
        collect(results, new Runner(latency.build()).run());
        try {
            collect(results, new Runner(throughput.build()).run());
            summary(started, results, report);
        } finally {
            try (var files = Files.list(report)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(report);
        }
    }

    private static void collect(Map<String, RunResult> into, Collection<RunResult> results) {
        for (RunResult r : results) {
            BenchmarkParams p = r.getParams();
            into.put(p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.') + 1), r);
        }
    }

    private static void summary(Instant started, Map<String, RunResult> results, Path report) throws IOException {
        Statistics pipeline = results.get("pipeline").getPrimaryResult().getStatistics();
        Statistics direct = results.get("direct").getPrimaryResult().getStatistics();
        Result<?> tput = results.get("pipelineThroughput").getPrimaryResult();
        double overhead = pipeline.getPercentile(50) - direct.getPercentile(50);
        Properties audit = load(report.resolve("pipelineThroughput.properties"));
        Properties latencyAudit = load(report.resolve("pipeline.properties"));
        StringBuilder s = new StringBuilder();
        s.append("\n== pi-host pipeline benchmark, started ").append(started).append(" ==\n");
        s.append(String.format("machine: %d CPUs, %s %s, java %s (%s)%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"),
                System.getProperty("java.vm.name")));
        s.append("per call, µs (JMH sample time)   p50        p90        p99      samples\n");
        s.append(row("pipeline (tools.execute)", pipeline));
        s.append(row("direct (provider.execute)", direct));
        s.append(String.format("overhead p50 (pipeline - direct)  %.2f µs   goal < %.0f µs: %s%n", overhead,
                GOAL_OVERHEAD_P50_US, overhead < GOAL_OVERHEAD_P50_US ? "MET" : "MISSED"));
        s.append(String.format("ratio pipeline/direct at p50      %.0f%n", pipeline.getPercentile(50)
                / Math.max(direct.getPercentile(50), 1e-9)));
        s.append("cost attribution (same run, separate forks; not goals):\n");
        s.append(row("  rpcRoundTrip (tools.abort)", results.get("rpcRoundTrip").getPrimaryResult().getStatistics()));
        s.append(row("  auditInsert (one row, own txn)", results.get("auditInsert").getPrimaryResult().getStatistics()));
        s.append("  the pipeline's own audit timings, medians over the pipeline fork's rows: "
                + latencyAudit.getProperty("timings", "not reported") + "\n");
        s.append(String.format("throughput, 2 threads             %.0f ± %.0f calls/s   goal > %.0f: %s%n", tput.getScore(),
                Double.isNaN(tput.getScoreError()) ? 0 : tput.getScoreError(), GOAL_THROUGHPUT,
                tput.getScore() > GOAL_THROUGHPUT ? "MET" : "MISSED"));
        s.append("process CPU per call (all threads, last iteration): pipeline " + latencyAudit.getProperty(
                "cpuPerCallMicros", "-") + " µs, pipelineThroughput " + audit.getProperty("cpuPerCallMicros", "-")
                + " µs\n");
        if (!audit.isEmpty()) {
            long calls = Long.parseLong(audit.getProperty("calls"));
            long rows = Long.parseLong(audit.getProperty("auditRows"));
            s.append(String.format("audit rows after the throughput fork: %d for %d calls answered ok (%s)%n", rows,
                    calls, rows == calls ? "every call audited" : "MISMATCH"));
        } else {
            s.append("audit rows after the throughput fork: not reported\n");
        }
        System.out.print(s);
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        if (Files.isRegularFile(file)) {
            try (var in = Files.newBufferedReader(file, java.nio.charset.StandardCharsets.UTF_8)) {
                p.load(in);
            }
        }
        return p;
    }

    private static String row(String label, Statistics st) {
        return String.format("%-32s %9.2f  %9.2f  %9.2f  %9d%n", label, st.getPercentile(50), st.getPercentile(90),
                st.getPercentile(99), st.getN());
    }
}
