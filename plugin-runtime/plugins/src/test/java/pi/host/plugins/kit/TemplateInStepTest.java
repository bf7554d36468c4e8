package pi.host.plugins.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scaffold's template and the sample plugins are built the same way: a change to one (a plugin
 * version, the failsafe setup, the Pi-Plugin header) must be made to the other. That the generated
 * module really builds and passes its tests is shown by the launcher's PluginKitIT.
 */
class TemplateInStepTest {

    private static final Path SAMPLES = Path.of("../../sample-plugins");

    private static final Map<String, String> TEMPLATE = Template.render("org.example.x",
            Map.of("ID", "x", "ID_SAFE", "x", "PACKAGE", "org.example.x", "SDK", "/sdk", "API_VERSION", "0.2.0"));

    @ParameterizedTest
    @ValueSource(strings = {"git-info", "todo-scan"})
    void theSamplesBuildLikeTheTemplate(String sample) throws Exception {
        String pom = Files.readString(SAMPLES.resolve(sample).resolve("pom.xml"));
        assertThat(section(pom, "build")).isEqualTo(section(TEMPLATE.get("pom.xml"), "build"));
        assertThat(section(pom, "properties")).contains(section(TEMPLATE.get("pom.xml"), "properties")
                .replaceAll("(?s)\\s*<!--[^>]*-->\\s*<pi.host.sdk>/sdk</pi.host.sdk>", ""));
        String bnd = Files.readString(SAMPLES.resolve(sample).resolve("bnd.bnd"));
        assertThat(bnd.lines().filter(l -> !l.startsWith("Bundle-SymbolicName")))
                .containsExactlyElementsOf(TEMPLATE.get("bnd.bnd").lines()
                        .filter(l -> !l.startsWith("Bundle-SymbolicName"))::iterator);
    }

    /**
     * The samples' tests take their fake call from the test kit, as the template's do: the installed
     * kit beside the api when built like a scaffolded module, and no call of their own.
     */
    @ParameterizedTest
    @ValueSource(strings = {"git-info", "todo-scan"})
    void theSamplesTestWithTheKitLikeTheTemplate(String sample) throws Exception {
        assertThat(TEMPLATE.get("pom.xml")).contains("<systemPath>${pi.host.sdk}/pi.host.testkit.jar</systemPath>");
        assertThat(TEMPLATE.keySet()).noneMatch(f -> f.endsWith("FakeToolCall.java"));
        assertThat(Files.readString(SAMPLES.resolve(sample).resolve("pom.xml")))
                .contains("<systemPath>${pi.host.sdk}/pi.host.testkit.jar</systemPath>");
        try (java.util.stream.Stream<Path> tests = Files.walk(SAMPLES.resolve(sample).resolve("src/test/java"))) {
            assertThat(tests.filter(Files::isRegularFile).map(Path::getFileName).map(Path::toString))
                    .doesNotContain("FakeToolCall.java");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"git-info/src/test/java/org/example/gitinfo/GitInfoInFelixIT.java",
        "todo-scan/src/test/java/org/example/todoscan/TodoScanInFelixIT.java"})
    void theSamplesInContainerTestSetsUpFelixLikeTheTemplates(String sample) throws Exception {
        String template = TEMPLATE.get("src/test/java/org/example/x/HelloInFelixIT.java");
        String copy = Files.readString(SAMPLES.resolve(sample));
        assertThat(from(copy, "Framework felix = ", "PluginTool tool"))
                .isEqualTo(from(template, "Framework felix = ", "PluginTool tool"));
        assertThat(from(copy, "private static Path pluginJar()", null))
                .isEqualTo(from(template, "private static Path pluginJar()", null));
    }

    @Test
    void theTemplatesDescriptorIsWhereTheBndHeaderSaysAndWhereMavenPutsResources() {
        assertThat(TEMPLATE.get("bnd.bnd")).contains("Pi-Plugin: META-INF/pi-plugin.json");
        assertThat(TEMPLATE).containsKey("src/main/resources/META-INF/pi-plugin.json");
    }

    private static String withoutPackage(String java) {
        return java.replaceFirst("package [a-z.]+;", "");
    }

    /** From {@code start} up to {@code end} (or the end of the text). */
    private static String from(String text, String start, String end) {
        int i = text.indexOf(start);
        assertThat(i).as(start).isNotNegative();
        int j = end == null ? -1 : text.indexOf(end, i);
        return j < 0 ? text.substring(i) : text.substring(i, j);
    }

    /** The text of the first {@code <name>...</name>} element, whitespace collapsed. */
    private static String section(String xml, String name) {
        int start = xml.indexOf("<" + name + ">");
        int end = xml.indexOf("</" + name + ">", start);
        assertThat(start).as("<" + name + ">").isNotNegative();
        return xml.substring(start, end).replaceAll("\\s+", " ");
    }
}
