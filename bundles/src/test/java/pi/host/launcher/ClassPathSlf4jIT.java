package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundles log through slf4j-simple to stderr with no ServiceLoader mediator in the host: slf4j-api and
 * slf4j-simple are loaded from the launcher's class path (so the bundles reach them only through the
 * system bundle's exports, ClassPathLibraries), neither is a bundle, and neither SPI Fly nor its ASM is
 * loaded at all.
 */
class ClassPathSlf4jIT {

    @TempDir
    Path data;

    @TempDir
    Path project;

    @Test
    void theBundlesLogThroughTheClassPathsSlf4jSimpleWithNoMediator() throws Exception {
        Files.writeString(project.resolve("a.txt"), "alpha\n");
        List<String> command = HostProcess.javaCommand(HostProcess.launcherJar());
        // before -jar: every loaded class with its source, and slf4j-simple's lines down to trace, on stderr
        int jar = command.indexOf("-jar");
        command.addAll(jar, List.of("-Xlog:class+load=info:stderr", "-Dorg.slf4j.simpleLogger.defaultLogLevel=trace"));
        command.addAll(List.of("serve", "--stdio", "--data-dir", data.toString()));
        List<String> names = new ArrayList<>();
        String stderr;
        try (HostProcess host = HostProcess.start(new ProcessBuilder(command))) {
            for (JsonNode b : host.startedInfo().get("bundles")) {
                names.add(b.get("symbolicName").asText());
            }
            String session = host.session(project, "auto");
            // a call, audited: sqlite-jdbc, a bundle, logs each statement at trace through slf4j
            JsonNode read = host.tool(session, "c1", "Read", "{\"path\":\"a.txt\"}");
            assertThat(read.get("ok").asBoolean()).as(read.toString()).isTrue();
            host.closeInput();
            assertThat(host.awaitExit(Duration.ofSeconds(30))).isZero();
            stderr = host.stderr();
        }
        Path bundleDir = HostProcess.launcherJar().resolveSibling("pi-host").resolve("bundle");
        assertThat(stderr).containsPattern("org\\.slf4j\\.LoggerFactory source: \\S*"
                + java.util.regex.Pattern.quote(bundleDir.resolve("slf4j-api.jar").toString()));
        assertThat(stderr).containsPattern("org\\.slf4j\\.simple\\.SimpleLogger source: \\S*"
                + java.util.regex.Pattern.quote(bundleDir.resolve("slf4j-simple.jar").toString()));
        // slf4j-simple's own line format ("[thread] LEVEL logger - message") from the sqlite-jdbc bundle's logger
        assertThat(stderr).containsPattern("(?m)^\\[[^\\]]+\\] TRACE org\\.sqlite\\.[\\w.$]+ - ");
        // no class of SPI Fly or of its ASM (the JDK's own jdk.internal.org.objectweb.asm does not count)
        assertThat(stderr).doesNotContain("SLF4J(", "No SLF4J providers", "class,load] org.apache.aries.spifly",
                "class,load] org.objectweb.asm");
        assertThat(names).contains("pi.host.core", "org.xerial.sqlite-jdbc")
                .doesNotContain("slf4j.api", "slf4j.simple", "org.apache.aries.spifly.dynamic.bundle");
    }
}
