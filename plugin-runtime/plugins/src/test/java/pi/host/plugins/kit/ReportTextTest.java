package pi.host.plugins.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.PluginReport;

/** The report as the author reads it, for a plugin that loads and for one that does not. */
class ReportTextTest {

    @Test
    void aValidPluginListsItsToolsAndWarnings() {
        PluginReport report = inspect("1.0.0", "{\"id\":\"todo-scan\",\"name\":\"TODO scanner\",\"version\":\"1.0.0\","
                + "\"agentTools\":[{\"name\":\"todos\",\"description\":\"d\",\"class\":\"org.example.T\","
                + "\"inputSchema\":{\"type\":\"object\"}}]}");
        assertThat(ReportText.render("t.jar", report)).isEqualTo("t.jar: OK, plugin todo-scan 1.0.0 (TODO scanner),"
                + " 1 warning\n"
                + "  tool plugin_todo_scan_todos: risk medium (none declared), hidden in Plan and Goal, timeout 120000"
                + " ms\n"
                + "warning: META-INF/pi-plugin.json: agentTools[0].risk\n"
                + "  what: " + report.warnings().get(0).what() + "\n"
                + "  fix:  " + report.warnings().get(0).fix() + "\n");
    }

    @Test
    void anInvalidPluginSaysItWillNotLoadAndListsEachErrorWithItsFix() {
        PluginReport report = inspect("1.0.0", "{\"id\":\"Bad\",\"name\":\"x\",\"version\":\"1.0.0\","
                + "\"agentTools\":[{\"name\":\"t\",\"description\":\"d\",\"class\":\"org.example.T\",\"risk\":\"low\","
                + "\"inputSchema\":{\"type\":\"object\"}}]}");
        assertThat(report.errors()).hasSize(1);
        assertThat(ReportText.render("b.jar", report)).isEqualTo("b.jar: 1 error (the host will not load it)\n"
                + "error: " + report.errors().get(0).where() + "\n"
                + "  what: " + report.errors().get(0).what() + "\n"
                + "  fix:  " + report.errors().get(0).fix() + "\n");
    }

    private static PluginReport inspect(String bundleVersion, String descriptor) {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", "org.example");
        a.putValue("Bundle-Version", bundleVersion);
        a.putValue(PluginInspector.HEADER, PluginInspector.DEFAULT_DESCRIPTOR);
        byte[] bytes = descriptor.getBytes(StandardCharsets.UTF_8);
        return PluginInspector.inspect(m, path -> path.equals(PluginInspector.DEFAULT_DESCRIPTOR) ? bytes
                : path.equals("org/example/T.class") ? new byte[0] : null);
    }
}
