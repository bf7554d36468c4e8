package pi.host.plugins.kit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files of a new plugin module, read from the {@code template/} resources beside this class
 * with their {@code @NAME@} placeholders filled in. The samples under sample-plugins/ follow the
 * same layout; TemplateInStepTest keeps their builds equal.
 */
final class Template {

    /** Template resource → path in the module; {@code {pkg}} is the tool package as folders. */
    private static final Map<String, String> FILES = new LinkedHashMap<>();

    static {
        FILES.put("pom.xml", "pom.xml");
        FILES.put("bnd.bnd", "bnd.bnd");
        FILES.put("README.md", "README.md");
        FILES.put("gitignore", ".gitignore");
        FILES.put("pi-plugin.json", "src/main/resources/META-INF/pi-plugin.json");
        FILES.put("HelloTool.java", "src/main/java/{pkg}/HelloTool.java");
        FILES.put("HelloToolTest.java", "src/test/java/{pkg}/HelloToolTest.java");
        FILES.put("HelloInFelixIT.java", "src/test/java/{pkg}/HelloInFelixIT.java");
    }

    /** The descriptor's path in the module. */
    static final String DESCRIPTOR = "src/main/resources/META-INF/pi-plugin.json";
    /** The tool class the template names, in the chosen package. */
    static final String TOOL_CLASS = "HelloTool";
    /** The module's version (and the descriptor's). */
    static final String VERSION = "0.1.0";

    private Template() {
    }

    /**
     * Every file of the module, path → content. {@code values} fills the placeholders (ID, ID_SAFE,
     * PACKAGE, SDK, API_VERSION); a placeholder without a value is a bug in the template.
     */
    static Map<String, String> render(String javaPackage, Map<String, String> values) {
        Map<String, String> files = new LinkedHashMap<>();
        for (Map.Entry<String, String> f : FILES.entrySet()) {
            String text = read(f.getKey());
            for (Map.Entry<String, String> v : values.entrySet()) {
                text = text.replace("@" + v.getKey() + "@", v.getValue());
            }
            if (text.matches("(?s).*@[A-Z_]+@.*")) {
                throw new IllegalStateException("template " + f.getKey() + " has a placeholder without a value");
            }
            files.put(f.getValue().replace("{pkg}", javaPackage.replace('.', '/')), text);
        }
        return files;
    }

    private static String read(String name) {
        try (InputStream in = Template.class.getResourceAsStream("template/" + name)) {
            if (in == null) {
                throw new IllegalStateException("template " + name + " is missing from the bundle");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
