package pi.host.plugins.kit.tools;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.plugins.kit.KitException;
import pi.host.plugins.kit.Scaffold;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code PluginScaffold}: writes a new plugin module into {@code <path>/<id>} inside the session
 * roots, like {@code pi-host plugin scaffold}. Medium risk: it creates files (never overwrites any:
 * the target must not exist or be empty).
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.PLUGIN_TOOLING)
@Tool(name = "PluginScaffold", risk = Risk.MEDIUM, deferred = true, mutates = true, pathArg = "path",
        pathKind = PathKind.DIRECTORY, timeoutMs = 30_000,
        summary = "Write a new plugin module (Maven, bnd, one tool with its schema, tests)")
public final class PluginScaffoldTool implements ToolProvider {

    private final BundleContext context;

    @Activate
    public PluginScaffoldTool(BundleContext context) {
        this.context = context;
    }

    @Override
    public String description() {
        return "Create a new pi-host plugin as a ready Maven module in <path>/<id> (path: an existing folder,"
                + " default the workspace root): pom with bnd-maven-plugin and the pi.host.api dependency, bnd.bnd"
                + " with the Pi-Plugin header, the descriptor META-INF/pi-plugin.json, one tool class (hello) with its"
                + " input schema, a JUnit 5 unit test and an in-container test in a real Felix. Then edit it, and"
                + " build, check and install it with PluginPack.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"id\":{\"type\":\"string\",\"description\":\"Plugin id: lower case letters, digits, '.' and '-',"
                + " starting with a letter, e.g. git-stats\"},"
                + "\"path\":{\"type\":\"string\",\"description\":\"Existing folder to create <id>/ in (default: the"
                + " workspace root)\"}},\"required\":[\"id\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        ResolvedPath parent = call.path().orElseThrow();
        String id = String.valueOf(call.arguments().get("id"));
        Scaffold.Result r;
        try {
            r = Scaffold.write(id, parent.absolute(), HostPaths.sdk(context));
        } catch (KitException e) {
            return ToolResult.error(e.kind() == KitException.Kind.USAGE ? ErrorCode.INVALID_ARGUMENT
                    : ErrorCode.TOOL_FAILED, e.getMessage());
        }
        StringBuilder text = new StringBuilder("Wrote plugin module " + id + " in " + r.module() + ":\n");
        r.files().forEach(f -> text.append("  ").append(f).append('\n'));
        text.append("The tool is ").append(r.javaPackage()).append(".HelloTool, described in")
                .append(" src/main/resources/META-INF/pi-plugin.json. Edit both, then build, check and install with")
                .append(" PluginPack.");
        return ToolResult.builder().text(text.toString())
                .detail("module", r.module().toString())
                .detail("files", r.files())
                .build();
    }
}
