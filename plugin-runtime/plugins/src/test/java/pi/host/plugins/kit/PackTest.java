package pi.host.plugins.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import pi.host.plugins.check.fixtures.GoodTool;

/**
 * Pack with a stand-in for {@code mvn} (a shell script that records its arguments and leaves a
 * prepared jar in target/): the build's outcomes, the check, and the placing of the jar. The real
 * Maven build is in the launcher's PluginKitIT.
 */
class PackTest {

    @TempDir
    Path base;
    Path module;
    Path data;
    Path sdk;
    Path args;

    @BeforeEach
    void folders() throws Exception {
        module = Files.createDirectories(base.resolve("module"));
        Files.writeString(module.resolve("pom.xml"), "<project/>");
        data = base.resolve("data");
        sdk = Files.createDirectories(base.resolve("sdk"));
        Files.write(sdk.resolve(Sdk.API_JAR), new byte[] {1});
        Files.write(sdk.resolve(Sdk.TESTKIT_JAR), new byte[] {1});
        args = base.resolve("mvn-args");
    }

    @Test
    void buildsChecksAndPlacesTheJarUnderThePluginId() throws Exception {
        Path built = pluginJar(module.resolve("target/echo-1.0.0.jar"), "echo", "1.0.0");
        List<String> output = new ArrayList<>();
        Pack.Result r = pack(mvn("echo compiling; exit 0"), output::add, Duration.ofMinutes(1));

        assertThat(Files.readString(args).strip()).isEqualTo("-B -q -Dstyle.color=never -Dpi.host.sdk=" + sdk
                + " package");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data))).isEqualTo("rwx------");
        assertThat(output).containsExactly("compiling");
        assertThat(r.jar()).isEqualTo(built);
        assertThat(r.report().valid()).isTrue();
        assertThat(r.installed()).isEqualTo(data.resolve("plugins/echo.jar"));
        assertThat(Files.readAllBytes(r.installed())).isEqualTo(Files.readAllBytes(built));
        assertThat(r.sameIdElsewhere()).isEmpty();
        try (Stream<Path> s = Files.list(data.resolve(Pack.STAGING))) {
            assertThat(s).isEmpty(); // the staged copy was renamed, not left behind
        }
    }

    @Test
    void packingAgainReplacesTheSameFileAndNamesOtherCopiesOfThePlugin() throws Exception {
        pluginJar(module.resolve("target/echo-1.0.0.jar"), "echo", "1.0.0");
        pack(mvn("exit 0"), line -> { }, Duration.ofMinutes(1));
        Path manual = pluginJar(data.resolve("plugins/echo-old.jar"), "echo", "0.9.0");
        Path newer = pluginJar(module.resolve("target/echo-1.1.0.jar"), "echo", "1.1.0");
        Files.setLastModifiedTime(newer, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));

        Pack.Result r = pack(mvn("exit 0"), line -> { }, Duration.ofMinutes(1));
        assertThat(r.jar()).isEqualTo(newer);
        assertThat(Files.readAllBytes(data.resolve("plugins/echo.jar"))).isEqualTo(Files.readAllBytes(newer));
        assertThat(r.sameIdElsewhere()).containsExactly(manual);
    }

    @Test
    void aJarWithProblemsIsReportedAndNotPlaced() throws Exception {
        pluginJar(module.resolve("target/echo-1.0.0.jar"), "echo", "2.0.0", "1.0.0");
        Pack.Result r = pack(mvn("exit 0"), line -> { }, Duration.ofMinutes(1));
        assertThat(r.report().valid()).isFalse();
        assertThat(r.report().errors().get(0).where()).isEqualTo("META-INF/pi-plugin.json: version");
        assertThat(r.installed()).isNull();
        assertThat(data.resolve("plugins")).doesNotExist();
    }

    @Test
    void aFailedBuildSaysSoWithItsLastLinesAndPlacesNothing() throws Exception {
        assertThatThrownBy(() -> pack(mvn("echo '[ERROR] cannot find symbol Foo'; exit 1"), line -> { },
                Duration.ofMinutes(1))).isInstanceOfSatisfying(KitException.class, e -> {
                    assertThat(e.kind()).isEqualTo(KitException.Kind.FAILED);
                    assertThat(e.getMessage()).isEqualTo("the build failed (mvn exit 1)");
                    assertThat(e.detail()).isEqualTo("[ERROR] cannot find symbol Foo");
                });
        assertThat(data).doesNotExist();
    }

    @Test
    void aBuildWithoutAPluginJarIsAUsageError() throws Exception {
        Files.createDirectories(module.resolve("target"));
        Files.writeString(module.resolve("target/other.jar"), "not a jar");
        assertThatThrownBy(() -> pack(mvn("exit 0"), line -> { }, Duration.ofMinutes(1)))
                .isInstanceOfSatisfying(KitException.class, e -> {
                    assertThat(e.kind()).isEqualTo(KitException.Kind.USAGE);
                    assertThat(e.getMessage()).startsWith("the build made no jar with a Pi-Plugin header in ");
                });
    }

    @Test
    void aFolderWithoutPomIsAUsageErrorAndRunsNoBuild() throws Exception {
        Files.delete(module.resolve("pom.xml"));
        assertThatThrownBy(() -> pack(mvn("exit 0"), line -> { }, Duration.ofMinutes(1)))
                .isInstanceOfSatisfying(KitException.class, e -> {
                    assertThat(e.kind()).isEqualTo(KitException.Kind.USAGE);
                    assertThat(e.getMessage()).startsWith("no pom.xml in " + module);
                });
        assertThat(args).doesNotExist();
    }

    @Test
    void aBuildPastItsTimeIsKilled() throws Exception {
        long start = System.nanoTime();
        assertThatThrownBy(() -> pack(mvn("sleep 60"), line -> { }, Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(KitException.class, e -> {
                    assertThat(e.kind()).isEqualTo(KitException.Kind.TIMEOUT);
                    assertThat(e.getMessage()).isEqualTo("the build did not finish within 1 s");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aCancelledBuildIsKilled() throws Exception {
        Pack pack = new Pack(new MavenBuild(mvn("sleep 60").toString()));
        // the caller was already cancelled: its action runs at once, as ToolCall.onCancel does
        assertThatThrownBy(() -> pack.pack(module, data, sdk, line -> { }, Duration.ofMinutes(1), Runnable::run))
                .isInstanceOfSatisfying(KitException.class,
                        e -> assertThat(e.kind()).isEqualTo(KitException.Kind.CANCELLED));
    }

    @Test
    void aMissingMavenIsAFailure() {
        Pack pack = new Pack(new MavenBuild(base.resolve("no-mvn").toString()));
        assertThatThrownBy(() -> pack.pack(module, data, sdk, line -> { }, Duration.ofMinutes(1), a -> { }))
                .isInstanceOfSatisfying(KitException.class, e -> {
                    assertThat(e.kind()).isEqualTo(KitException.Kind.FAILED);
                    assertThat(e.getMessage()).startsWith("could not run Maven (");
                });
    }

    private Pack.Result pack(Path mvn, java.util.function.Consumer<String> output, Duration timeout)
            throws KitException {
        return new Pack(new MavenBuild(mvn.toString())).pack(module, data, sdk, output, timeout, action -> { });
    }

    /** A stand-in for mvn: records its arguments, then runs {@code body}. */
    private Path mvn(String body) throws IOException {
        Path script = base.resolve("mvn");
        Files.writeString(script, "#!/bin/sh\necho \"$@\" > '" + args + "'\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private static Path pluginJar(Path file, String id, String version) throws IOException {
        return pluginJar(file, id, version, version);
    }

    /** A valid one-tool plugin jar (GoodTool), unless the descriptor's version differs from the bundle's. */
    private static Path pluginJar(Path file, String id, String descriptorVersion, String bundleVersion)
            throws IOException {
        Files.createDirectories(file.getParent());
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", "org.example." + id);
        a.putValue("Bundle-Version", bundleVersion);
        a.putValue("Import-Package", "pi.host.api;version=\"[0.2,1)\"");
        a.putValue("Pi-Plugin", "META-INF/pi-plugin.json");
        String descriptor = "{\"id\":\"" + id + "\",\"name\":\"Echo\",\"version\":\"" + descriptorVersion + "\","
                + "\"agentTools\":[{\"name\":\"echo\",\"description\":\"Echoes.\",\"class\":\""
                + GoodTool.class.getName() + "\",\"risk\":\"low\",\"inputSchema\":{\"type\":\"object\"}}]}";
        String classFile = GoodTool.class.getName().replace('.', '/') + ".class";
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, m);
                InputStream cls = GoodTool.class.getClassLoader().getResourceAsStream(classFile)) {
            jar.putNextEntry(new JarEntry("META-INF/pi-plugin.json"));
            jar.write(descriptor.getBytes(StandardCharsets.UTF_8));
            jar.putNextEntry(new JarEntry(classFile));
            jar.write(cls.readAllBytes());
        }
        return file;
    }
}
