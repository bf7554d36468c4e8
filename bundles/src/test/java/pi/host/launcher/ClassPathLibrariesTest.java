package pi.host.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassPathLibrariesTest {

    @TempDir
    Path dir;

    private Path jar(String path, String header, String value) throws IOException {
        Path jar = dir.resolve(path);
        Files.createDirectories(jar.getParent());
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (header != null) {
            mf.getMainAttributes().putValue(header, value);
        }
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, mf)) {
            j.flush();
        }
        return jar;
    }

    /**
     * Pins: every bundle jar the launcher's Class-Path names is offered with its own exports, in that order;
     * the framework's own jars (pi-host/lib/) never are, nor a named jar that is missing or exports nothing.
     */
    @Test
    void offersTheExportsOfTheClassPathsBundleJarsOnly() throws IOException {
        jar("pi-host/lib/picocli.jar", "Export-Package", "picocli;version=\"4.7.7\"");
        jar("pi-host/bundle/jna.jar", "Export-Package", "com.sun.jna;version=\"5.19.1\"");
        jar("pi-host/bundle/slf4j-api.jar", "Export-Package", "org.slf4j;version=\"2.0.17\",org.slf4j;version=\"1.7.36\"");
        jar("pi-host/bundle/plain.jar", null, null);
        Path launcher = jar("pi.host.launcher.jar", "Class-Path", "pi-host/lib/picocli.jar pi-host/bundle/jna.jar"
                + " pi-host/bundle/slf4j-api.jar pi-host/bundle/plain.jar pi-host/bundle/missing.jar");
        assertThat(ClassPathLibraries.exports(launcher)).isEqualTo(
                "com.sun.jna;version=\"5.19.1\",org.slf4j;version=\"2.0.17\",org.slf4j;version=\"1.7.36\"");
        assertThat(ClassPathLibraries.jars(launcher)).containsExactly(dir.resolve("pi-host/bundle/jna.jar"),
                dir.resolve("pi-host/bundle/slf4j-api.jar"), dir.resolve("pi-host/bundle/plain.jar"),
                dir.resolve("pi-host/bundle/missing.jar"));
    }

    /** Pins: no launcher jar (the launcher run from a class directory) or no Class-Path: nothing is offered. */
    @Test
    void offersNothingWithoutALauncherJarOrClassPath() throws IOException {
        assertThat(ClassPathLibraries.exports(dir.resolve("classes"))).isNull();
        assertThat(ClassPathLibraries.exports(jar("bare.jar", null, null))).isNull();
    }
}
