package pi.host.plugins.kit.tools;

import org.osgi.service.component.annotations.Component;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.plugins.check.PluginInspector;
import pi.host.plugins.check.PluginReport;
import pi.host.plugins.kit.ReportText;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code PluginCheck}: the same check as {@code pi-host plugin check} and as the runtime's, on a jar
 * inside the session roots. Low risk: it reads the jar and loads its tool classes without
 * initialising them, so none of the plugin's code runs.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.PLUGIN_TOOLING)
@Tool(name = "PluginCheck", risk = Risk.LOW, deferred = true, pathArg = "path", pathKind = PathKind.EXISTING_FILE,
        timeoutMs = 60_000, summary = "Check a built plugin jar the way the host will load it")
public final class PluginCheckTool implements ToolProvider {

    @Override
    public String description() {
        return "Check a built pi-host plugin jar exactly as the host will when it loads it: the manifest (Pi-Plugin"
                + " header, imports only pi.host.api), the descriptor (id, version, tool names, JSON schemas, risk,"
                + " actions and planSafeActions) and the tool classes. Lists every error and warning with where it"
                + " is, what is wrong and how to fix it.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\",\"description\":"
                + "\"The plugin jar, e.g. my-plugin/target/my-plugin-0.1.0.jar\"}},"
                + "\"required\":[\"path\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        ResolvedPath jar = call.path().orElseThrow();
        PluginReport report = PluginInspector.inspect(jar.absolute());
        // a jar with problems is a successful check: the problems are its answer
        return ToolResult.builder().text(ReportText.render(jar.display(), report).stripTrailing())
                .detail("valid", report.valid())
                .detail("pluginId", report.declaredId())
                .detail("errors", report.errors().size())
                .detail("warnings", report.warnings().size())
                .build();
    }
}
