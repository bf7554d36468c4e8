package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options bin/jvm.sh chooses per java. It passes {@code -XX:TrimNativeHeapInterval} and the JIT's
 * start-up memory ceiling ({@code -XX:CompileCommand=MemLimit}) only to a JVM known to have them: an unknown
 * {@code -XX} option (or compile command) stops the JVM or prints on its output, so a java without them must
 * start without them. The lowered JIT thresholds go to every release, for the call path's packages only,
 * before the user's own options.
 */
class JvmOptionChoiceTest {

    private static final String TRIM = "-XX:TrimNativeHeapInterval=2000";

    @TempDir
    Path dir;

    /** Pins that the trim option is given to exactly the releases that have it, so no java is kept from starting. */
    @ParameterizedTest
    @CsvSource({"17.0.8, false", "17.0.14, false", "17.0.15, true", "17.0.16, true", "21.0.5, false",
            "22.0.2, true", "25.0.3, true"})
    void theTrimOptionGoesOnlyToAJavaThatHasIt(String version, boolean expected) throws Exception {
        Path java = fakeJava(version);
        Path assembly = assembly(version);

        List<String> options = jvmOptions(java, assembly);

        assertThat(options).as("the JVM command for Java %s", version).first().isEqualTo(java.toString());
        if (expected) {
            assertThat(options).contains(TRIM);
        } else {
            assertThat(options).doesNotContain(TRIM);
        }
    }

    /**
     * Pins that the JIT's memory ceiling goes to Java 22 and later only, and only for the start's code: the
     * calls' own packages (pi.host, Jackson) never get a ceiling, so their C2 code is never given up.
     */
    @ParameterizedTest
    @CsvSource({"17.0.15, false", "21.0.5, false", "22.0.2, true", "25.0.3, true"})
    void theJitMemoryCeilingGoesOnlyToAJavaThatHasItAndOnlyToStartUpCode(String version, boolean expected)
            throws Exception {
        Path java = fakeJava(version);
        Path assembly = assembly(version);

        List<String> ceilings = jvmOptions(java, assembly).stream()
                .filter(o -> o.startsWith("-XX:CompileCommand=MemLimit,")).toList();

        if (expected) {
            assertThat(ceilings).as("the ceilings for Java %s", version).isNotEmpty()
                    .allSatisfy(o -> assertThat(o).matches("-XX:CompileCommand=MemLimit,[a-z.]+\\*::\\*,2560k"))
                    .noneSatisfy(o -> assertThat(o).containsAnyOf("pi.host", "fasterxml", "MemLimit,*"));
            assertThat(jvmOptions(java, assembly)).as("no compile command echoes on the RPC stream")
                    .contains("-XX:CompileCommand=quiet");
        } else {
            assertThat(ceilings).isEmpty();
        }
    }

    /**
     * Pins the scope of the lowered JIT thresholds: only the packages a call runs through (the host's,
     * Jackson's, the schema validator's, NIO's, SQLite's, the MCP SDK's and Reactor's) compile after fewer invocations, on every release;
     * the start's code keeps the default thresholds (no global {@code -XX:CompileThresholdScaling}), so its
     * compilations do not queue in front of the first calls and the first Grep.
     */
    @ParameterizedTest
    @CsvSource({"17.0.8", "17.0.15", "21.0.5", "25.0.3"})
    void theLoweredJitThresholdsAreScopedToTheCallPathOnEveryJava(String version) throws Exception {
        Path java = fakeJava(version);
        Path assembly = assembly(version);

        List<String> options = jvmOptions(java, assembly);
        List<String> scaled = options.stream()
                .filter(o -> o.startsWith("-XX:CompileCommand=CompileThresholdScaling,")).toList();

        assertThat(options).as("the JVM command for Java %s", version)
                .noneMatch(o -> o.startsWith("-XX:CompileThresholdScaling="));
        assertThat(scaled).extracting(o -> o.split(",")[1])
                .contains("pi.host.*::*", "com.fasterxml.jackson.*::*", "java.nio.*::*", "sun.nio.*::*",
                        "io.modelcontextprotocol.*::*", "reactor.*::*")
                .noneMatch(p -> p.startsWith("org.apache.felix") || p.startsWith("java.util") || p.equals("*::*"));
        assertThat(options).as("no compile command echoes on the RPC stream")
                .containsSubsequence("-XX:CompileCommand=quiet", scaled.get(0));
    }

    /**
     * Pins the factor per release: a quarter of the thresholds on Java 17, whose AppCDS archive keeps no
     * method profiles, half on later releases; the value is written as a decimal (Java 25 rejects an
     * integer there and does not start).
     */
    @ParameterizedTest
    @CsvSource({"17.0.8, 0.25", "17.0.15, 0.25", "21.0.5, 0.5", "25.0.3, 0.5"})
    void theCallPathsFactorIsAQuarterOnJava17AndAHalfLater(String version, String factor) throws Exception {
        Path java = fakeJava(version);
        Path assembly = assembly(version);

        assertThat(jvmOptions(java, assembly))
                .filteredOn(o -> o.startsWith("-XX:CompileCommand=CompileThresholdScaling,")).isNotEmpty()
                .allSatisfy(o -> assertThat(o).endsWith("::*," + factor));
    }

    /** Pins that the user's own options come after bin/jvm.sh's, so a {@code PI_HOST_JAVA_OPTS} threshold wins. */
    @ParameterizedTest
    @CsvSource({"17.0.15", "25.0.3"})
    void theUsersJitOptionsComeAfterTheScopedThresholds(String version) throws Exception {
        Path java = fakeJava(version);
        Path assembly = assembly(version);
        String user = "-XX:CompileCommand=CompileThresholdScaling,pi.host.*::*,1.0";

        List<String> options = jvmOptions(java, assembly, user);
        int at = options.indexOf(user);

        assertThat(at).as("the user's option in %s", options).isPositive();
        assertThat(options.subList(0, at)).anyMatch(o -> o.startsWith("-XX:CompileCommand=CompileThresholdScaling,pi.host"));
        assertThat(options.subList(at + 1, options.size()))
                .noneMatch(o -> o.startsWith("-XX:CompileCommand=CompileThresholdScaling,"));
    }

    /**
     * Pins the scope of the earlier call notice and the later loop notice of C1's level-2 code: only {@code pi-host mcp} with its AOT cache
     * (Java 25 and later, whose training profiles send a trained method from level 2 to C2 at its next notice)
     * gets it; {@code serve}, Java 17's AppCDS and a start without an archive keep the JVM's default.
     */
    @ParameterizedTest
    @CsvSource({"25.0.3, mcp, auto, true", "25.0.3, serve, auto, false", "25.0.3, mcp, none, false",
            "17.0.15, mcp, auto, false", "22.0.2, mcp, auto, false"})
    void theLevelTwoNoticesGoOnlyToTheMcpFrontWithItsAotCache(String version, String command, String archive,
            boolean expected) throws Exception {
        Path java = fakeJava(version);
        Path assembly = assembly(version);

        List<String> options = jvmOptions(java, assembly, null, command, archive);

        if (expected) {
            assertThat(options).as("the JVM command of %s on Java %s", command, version)
                    .contains("-XX:Tier2InvokeNotifyFreqLog=9", "-XX:Tier2BackedgeNotifyFreqLog=16");
        } else {
            assertThat(options).as("the JVM command of %s on Java %s (archive %s)", command, version, archive)
                    .noneMatch(o -> o.startsWith("-XX:Tier2"));
        }
    }

    /**
     * Pins that the JIT options bin/jvm.sh gives this very java parse and echo nothing on stdout (the RPC
     * stream): a real JVM started with them prints its version on stderr and nothing else on stdout.
     */
    @Test
    void theRealJavaAcceptsTheJitOptionsAndKeepsStdoutClean() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path assembly = assembly("real");

        List<String> options = new ArrayList<>(jvmOptions(java, assembly));
        options.add("-version");
        Process p = new ProcessBuilder(options).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("the JVM's exit with %s", options).isZero();
        assertThat(out).as("stdout of %s", options).isEmpty();
    }

    /** A JDK folder whose release file says {@code version}; its java does nothing. */
    private Path fakeJava(String version) throws IOException {
        Path home = Files.createDirectories(dir.resolve("jdk-" + version));
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        return java;
    }

    private Path assembly(String version) throws IOException {
        Path assembly = Files.createDirectories(dir.resolve("assembly-" + version));
        Files.writeString(assembly.resolve("jvm.options"), "-XX:-UsePerfData\n");
        return assembly;
    }

    /** What {@code pi_host_jvm} sets for {@code java} (no archive: this test is about the options). */
    private static List<String> jvmOptions(Path java, Path assembly) throws IOException, InterruptedException {
        return jvmOptions(java, assembly, null);
    }

    /** The same with {@code PI_HOST_JAVA_OPTS} set to {@code userOptions} (none when null). */
    private static List<String> jvmOptions(Path java, Path assembly, String userOptions)
            throws IOException, InterruptedException {
        return jvmOptions(java, assembly, userOptions, "", "none");
    }

    /**
     * The same for the launcher's {@code command} and {@code PI_HOST_ARCHIVE=archive}; the test assembly has
     * no launcher jar, so an archive asked for is never made (and the options are chosen before that).
     */
    private static List<String> jvmOptions(Path java, Path assembly, String userOptions, String command,
            String archive) throws IOException, InterruptedException {
        Path script = Path.of("").toAbsolutePath().getParent().resolve("bin").resolve("jvm.sh");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                "source \"$1\" && pi_host_jvm \"$2\" \"$3\" && printf '%s\\n' \"${PI_HOST_JVM[@]}\"",
                "jvm-options", script.toString(), assembly.toString(), command);
        pb.environment().put("PI_HOST_JAVA", java.toString());
        pb.environment().put("PI_HOST_ARCHIVE", archive);
        pb.environment().remove("PI_HOST_JAVA_OPTS");
        if (userOptions != null) {
            pb.environment().put("PI_HOST_JAVA_OPTS", userOptions);
        }
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }
}
