package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/pi-host's start-up archive (bin/jvm.sh): a JVM maps the classes of the archive it is given, so an
 * archive is code. It is mapped only when it lies beside the jars it describes, belongs to their owner,
 * and nobody else may write it or its folder; a changed jar names another archive. Run on a copy of the
 * built distribution (bin/ and bundles/target), with the java the tests run on (Java 17 in CI: AppCDS).
 */
class StartupArchiveIT {

    private static final String ARCHIVE_FLAG = "-XX:SharedArchiveFile=";
    @TempDir
    Path root;
    private Path assembly;

    @BeforeEach
    void copyTheDistribution() throws IOException {
        Path launcher = HostProcess.launcherJar();
        Path repo = launcher.getParent().getParent().getParent();
        copyTree(repo.resolve("bin"), root.resolve("bin"));
        Path target = Files.createDirectories(root.resolve("bundles").resolve("target"));
        Files.copy(launcher, target.resolve(launcher.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
        assembly = target.resolve("pi-host");
        copyTree(launcher.resolveSibling("pi-host"), assembly);
        // the built launcher is newer than every copied file, so bin/build-if-stale builds nothing
        Files.setLastModifiedTime(target.resolve(launcher.getFileName()), FileTime.from(Instant.now()));
    }

    /** Pins: an archive someone else could have written (its owner, its mode, its folder's) is never mapped. */
    @Test
    void anArchiveOthersCouldHaveWrittenIsNeverMapped() throws Exception {
        Path archive = archiveOf(command());
        assertThat(archive).as("made by a training start, beside the jars").isNotNull().hasParent(assembly.resolve("jvm"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(archive))).isEqualTo("r--r--r--");
        assertThat(archiveOf(command())).as("the same archive is mapped on the next start").isEqualTo(archive);

        Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rw-rw-r--"));
        assertThat(archiveOf(command())).as("group-writable archive").isNull();
        Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("r--r--r--"));

        Path folder = archive.getParent();
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(archiveOf(command())).as("archive in a world-writable folder").isNull();
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));

        UserPrincipal nobody = root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        UserPrincipal owner = Files.getOwner(archive);
        Files.setOwner(archive, nobody);
        List<String> other = command();
        assertThat(archiveOf(other)).as("archive of another user").isNull();
        assertThat(String.join(" ", other)).contains("without a start-up archive");
        Files.setOwner(archive, owner);
        assertThat(archiveOf(command())).isEqualTo(archive);
    }

    /** Pins: an archive made for other jars is never asked for: a changed jar names another one. */
    @Test
    void aChangedJarNamesAnotherArchive() throws Exception {
        Path first = archiveOf(command());
        assertThat(first).isNotNull();
        Path jar = assembly.resolve("bundle").resolve("pi.host.core.jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(5)));
        Path second = archiveOf(command());
        assertThat(second).isNotNull().isNotEqualTo(first);
    }

    /** Pins: an archive trained by another training run is never asked for: the training is part of the key. */
    @Test
    void aChangedTrainingNamesAnotherArchive() throws Exception {
        Path first = archiveOf(command());
        assertThat(first).isNotNull();
        Path script = root.resolve("bin").resolve("jvm.sh");
        String training = Files.readString(script);
        assertThat(training).contains("    reps=3\n");
        Files.writeString(script, training.replace("    reps=3\n", "    reps=2\n"));
        Path second = archiveOf(command());
        assertThat(second).isNotNull().isNotEqualTo(first);
        Files.writeString(script, training);
        assertThat(archiveOf(command())).as("the first training's archive again").isEqualTo(first);
    }

    /**
     * Pins: {@code pi-host mcp} has an archive of its own, trained through the MCP front, so a start of the
     * front takes the front's classes from it (before, it mapped serve's archive, which has none of them).
     */
    @Test
    void theMcpFrontHasAnArchiveTrainedThroughIt(@TempDir Path work) throws Exception {
        Path serve = archiveOf(command());
        List<String> mcp = command("mcp", "--workspace", work.toString(), "--data-dir", work.resolve("data").toString());
        Path front = archiveOf(mcp);
        assertThat(front).as("the front's archive, beside serve's").isNotNull().hasParent(assembly.resolve("jvm")).isNotEqualTo(serve);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(front))).isEqualTo("r--r--r--");
        assertThat(archiveOf(command())).as("serve keeps its own").isEqualTo(serve);

        // one start of the front on it, answering an MCP initialize, with the class-loading log
        Path log = work.resolve("class-load.log");
        Process p = new ProcessBuilder(withClassLoadLog(mcp, log)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String answer = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(answer).contains("\"id\":1,\"result\"");
        assertThat(Files.readAllLines(log)).as("the front's class from the archive")
                .anyMatch(l -> l.contains("pi.host.mcpserver.internal.McpFront source: shared objects file"));
    }

    /**
     * Pins: serve's archive is trained on calls that ran, so a fresh host takes the call path's classes from
     * it (until grep15 the training's session id came out empty and every call was refused: an archive with
     * the start and none of the call path; docs/performance-log.md).
     */
    @Test
    void theServeArchiveHoldsTheCallPath(@TempDir Path work) throws Exception {
        List<String> serve = command("serve", "--stdio", "--data-dir", work.resolve("data").toString());
        assertThat(archiveOf(serve)).isNotNull();
        Files.writeString(work.resolve("a.txt"), "line 1\n");
        Path log = work.resolve("class-load.log");
        Process p = new ProcessBuilder(withClassLoadLog(serve, log)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        OutputStream out = p.getOutputStream();
        out.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"session.create\",\"params\":{\"projectRoot\":\""
                + work + "\",\"permissionMode\":\"auto\"}}\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        String created = answerTo(in, 1);
        String session = created.replaceFirst(".*\"sessionId\":\"([^\"]+)\".*", "$1");
        out.write(("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools.execute\",\"params\":{\"sessionId\":\"" + session
                + "\",\"turnId\":\"t\",\"toolCallId\":\"c\",\"name\":\"Read\",\"arguments\":{\"path\":\"a.txt\"}}}\n")
                .getBytes(StandardCharsets.UTF_8));
        out.close();
        assertThat(answerTo(in, 2)).contains("\"ok\":true");
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readAllLines(log)).as("the call's class from the archive")
                .anyMatch(l -> l.contains("pi.host.core.internal.execute.HostToolCall source: shared objects file"));
    }

    /**
     * Pins: the archive holds the classes of the bundles started after the first answer (mcp, plugins) and of the
     * work the host does after the training's last call (the login-PATH probe waits for the calls to pause): the
     * training ends when the host says that work is done, and a collection during its stop does not drop the
     * stopped bundles' classes (until train17 a busy machine trained Java 17's archive without both;
     * docs/performance-log.md). Read from the JVM's own list of the archive.
     */
    @Test
    void theArchiveHoldsTheLaterBundlesAndTheAfterAnswerWork() throws Exception {
        List<String> serve = command();
        assertThat(archiveOf(serve)).isNotNull();
        List<String> listing = new ArrayList<>(serve.subList(0, serve.indexOf("-jar")));
        listing.add("-XX:+PrintSharedArchiveAndExit");
        listing.addAll(List.of("-jar", serve.get(serve.indexOf("-jar") + 1)));
        Process p = new ProcessBuilder(listing).redirectErrorStream(true).start();
        p.getOutputStream().close();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(lines).contains("archive is valid");
        List<String> archived = lines.stream().map(String::strip).filter(l -> l.matches("[0-9]+: \\S+ \\S+_loader"))
                .map(l -> l.split(" ")[1]).toList();
        assertThat(archived).as("a later bundle's, another's, the login-PATH probe's")
                .contains("pi.host.mcp.internal.McpBridge", "pi.host.plugins.internal.PluginExtender",
                        "pi.host.tools.internal.shell.LoginPath");
    }

    /** Pins: a training whose calls fail leaves no archive; the host starts without one and says so. */
    @Test
    void aTrainingWhoseCallsFailKeepsNoArchive() throws Exception {
        Path script = root.resolve("bin").resolve("jvm.sh");
        String training = Files.readString(script);
        String read = "'\"Read\",\"arguments\":{\"path\":\"a.txt\"}'";
        assertThat(training).contains(read);
        // the small Read of a file the training never wrote: every one of them answers an error
        Files.writeString(script, training.replace(read, "'\"Read\",\"arguments\":{\"path\":\"missing.txt\"}'"));
        List<String> failed = command();
        assertThat(archiveOf(failed)).isNull();
        assertThat(String.join(" ", failed)).contains("without a start-up archive");
        try (Stream<Path> left = Files.list(assembly.resolve("jvm"))) {
            assertThat(left).as("of the failed training only its marker, so later starts do not train again")
                    .singleElement().satisfies(m -> assertThat(m.getFileName().toString()).endsWith(".failed"));
        }
        assertThat(archiveOf(command())).as("the next start, without training").isNull();
    }

    /** {@code command} with the JVM's class-loading log (which class came from the archive) written to {@code log}. */
    private static List<String> withClassLoadLog(List<String> command, Path log) {
        List<String> run = new ArrayList<>(command);
        run.add(run.indexOf("-jar"), "-Xlog:class+load=info:file=" + log);
        return run;
    }

    /** The answer line to request {@code id}, skipping notifications. */
    private static String answerTo(BufferedReader in, int id) throws IOException {
        for (String line; (line = in.readLine()) != null; ) {
            if (line.contains("\"id\":" + id + ",")) {
                return line;
            }
        }
        throw new IOException("no answer to " + id);
    }

    /** What bin/pi-host would run (PI_HOST_PRINT_COMMAND), making the archive first when it is missing. */
    private List<String> command() throws Exception {
        return command("serve", "--stdio");
    }

    private List<String> command(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(root.resolve("bin").resolve("pi-host").toString()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().put("PI_HOST_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        pb.environment().put("PI_HOST_PRINT_COMMAND", "1");
        pb.environment().remove("PI_HOST_ARCHIVE");
        pb.environment().remove("PI_HOST_JAVA_OPTS");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }

    private static Path archiveOf(List<String> command) {
        return command.stream().filter(a -> a.startsWith(ARCHIVE_FLAG) || a.startsWith("-XX:AOTCache="))
                .map(a -> Path.of(a.substring(a.indexOf('=') + 1))).findFirst().orElse(null);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path rel = from.relativize(p);
                if (rel.startsWith("jvm")) {
                    continue; // the archives of the build itself: the copy makes its own
                }
                Path dest = to.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
