package pi.host.plugins.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Scaffolding on a real folder: the files, their filled-in placeholders, and every refusal with nothing written. */
class ScaffoldTest {

    @TempDir
    Path base;
    Path sdk;
    Path dir;

    @BeforeEach
    void sdk() throws Exception {
        sdk = Files.createDirectories(base.resolve("sdk"));
        Files.write(sdk.resolve(Sdk.API_JAR), new byte[] {1});
        Files.write(sdk.resolve(Sdk.TESTKIT_JAR), new byte[] {1});
        dir = Files.createDirectories(base.resolve("work"));
    }

    @Test
    void writesAReadyModuleNamedAfterTheId() throws Exception {
        Scaffold.Result r = Scaffold.write("git-stats", dir, sdk);
        Path module = dir.resolve("git-stats");
        assertThat(r.module()).isEqualTo(module);
        assertThat(r.javaPackage()).isEqualTo("org.example.git_stats");
        assertThat(r.files()).containsExactly("pom.xml", "bnd.bnd", "README.md", ".gitignore",
                "src/main/resources/META-INF/pi-plugin.json",
                "src/main/java/org/example/git_stats/HelloTool.java",
                "src/test/java/org/example/git_stats/HelloToolTest.java",
                "src/test/java/org/example/git_stats/HelloInFelixIT.java");
        for (String f : r.files()) {
            assertThat(module.resolve(f)).isRegularFile();
            assertThat(Files.readString(module.resolve(f))).as(f).doesNotContainPattern("@[A-Z_]+@");
        }
        String pom = Files.readString(module.resolve("pom.xml"));
        assertThat(pom).contains("<artifactId>git-stats</artifactId>")
                .contains("<pi.host.sdk>" + sdk.toAbsolutePath() + "</pi.host.sdk>")
                .contains("<systemPath>${pi.host.sdk}/pi.host.api.jar</systemPath>")
                .contains("<systemPath>${pi.host.sdk}/pi.host.testkit.jar</systemPath>");
        assertThat(Files.readString(module.resolve("src/test/java/org/example/git_stats/HelloToolTest.java")))
                .contains("import pi.host.testkit.FakeToolCall;");
        assertThat(Files.readString(module.resolve("bnd.bnd"))).contains("Pi-Plugin: META-INF/pi-plugin.json")
                .contains("Bundle-SymbolicName: org.example.git_stats");
        assertThat(Files.readString(module.resolve("src/main/resources/META-INF/pi-plugin.json")))
                .contains("\"id\": \"git-stats\"").contains("\"class\": \"org.example.git_stats.HelloTool\"");
        assertThat(Files.readString(module.resolve("README.md"))).contains("plugin_git_stats_hello");
        assertThat(Files.readString(module.resolve("src/main/java/org/example/git_stats/HelloTool.java")))
                .startsWith("package org.example.git_stats;");
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s).containsExactly(module); // no staging folder left behind
        }
    }

    @Test
    void anEmptyExistingFolderIsUsed() throws Exception {
        Files.createDirectories(dir.resolve("todo"));
        Scaffold.write("todo", dir, sdk);
        assertThat(dir.resolve("todo/pom.xml")).isRegularFile();
    }

    @Test
    void aMissingParentFolderIsCreated() throws Exception {
        Scaffold.write("todo", dir.resolve("a/b"), sdk);
        assertThat(dir.resolve("a/b/todo/pom.xml")).isRegularFile();
    }

    @Test
    void idsThatAreNoJavaNamesStillGiveAValidPackage() {
        assertThat(Scaffold.packageSegment("int")).isEqualTo("int_");
        assertThat(Scaffold.packageSegment("a.b-c")).isEqualTo("a_b_c");
    }

    @Test
    void aBadIdIsRefusedWithTheValidatorsWordsAndNothingIsWritten() throws Exception {
        for (String id : new String[] {"Git", "../escape", "9lives", "", "a".repeat(49)}) {
            assertThatThrownBy(() -> Scaffold.write(id, dir, sdk)).as(id).isInstanceOfSatisfying(KitException.class,
                    e -> {
                        assertThat(e.kind()).isEqualTo(KitException.Kind.USAGE);
                        assertThat(e.getMessage()).startsWith("cannot scaffold this plugin id: ");
                    });
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s).isEmpty();
        }
        assertThat(base.resolve("escape")).doesNotExist();
    }

    @Test
    void aFolderWithFilesIsNeverTouched() throws Exception {
        Path existing = Files.createDirectories(dir.resolve("todo"));
        Files.writeString(existing.resolve("notes.txt"), "mine");
        assertThatThrownBy(() -> Scaffold.write("todo", dir, sdk)).isInstanceOfSatisfying(KitException.class, e -> {
            assertThat(e.kind()).isEqualTo(KitException.Kind.USAGE);
            assertThat(e.getMessage()).isEqualTo(existing + " already exists and is not an empty folder; choose"
                    + " another --dir or remove it");
        });
        try (Stream<Path> s = Files.list(existing)) {
            assertThat(s).containsExactly(existing.resolve("notes.txt"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {Sdk.API_JAR, Sdk.TESTKIT_JAR})
    void withoutTheApiOrTheTestKitJarNothingIsWritten(String jar) throws Exception {
        Files.delete(sdk.resolve(jar));
        assertThatThrownBy(() -> Scaffold.write("todo", dir, sdk)).isInstanceOfSatisfying(KitException.class, e -> {
            assertThat(e.kind()).isEqualTo(KitException.Kind.FAILED);
            assertThat(e.getMessage()).startsWith("no " + jar + " in " + sdk.toAbsolutePath());
        });
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s).isEmpty();
        }
    }
}
