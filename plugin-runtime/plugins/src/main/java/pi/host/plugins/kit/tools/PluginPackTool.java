package pi.host.plugins.kit.tools;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.plugins.kit.KitException;
import pi.host.plugins.kit.Pack;
import pi.host.plugins.kit.ReportText;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code PluginPack}: builds a plugin module with Maven, checks the jar and drops it into this host's
 * plugins folder, like {@code pi-host plugin pack}. High risk: the build runs the module's code (its
 * tests, its build plugins) and the result is installed into the running host (its tools still wait
 * for the user's grant).
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.PLUGIN_TOOLING)
@Tool(name = "PluginPack", risk = Risk.HIGH, deferred = true, mutates = true, pathArg = "path",
        pathKind = PathKind.DIRECTORY, timeoutMs = PluginPackTool.TIMEOUT_MS,
        summary = "Build a plugin module with Maven, check it, install it into this host")
public final class PluginPackTool implements ToolProvider {

    static final long TIMEOUT_MS = 600_000;
    /** Left before the host's deadline to answer with the build's own output rather than a bare timeout. */
    private static final Duration MARGIN = Duration.ofSeconds(2);

    private final BundleContext context;

    @Activate
    public PluginPackTool(BundleContext context) {
        this.context = context;
    }

    @Override
    public String description() {
        return "Build a pi-host plugin module (path: its folder, with pom.xml; default the workspace root) with"
                + " 'mvn -B -q package' against this host's pi.host.api, check the jar as the host will, and install"
                + " it into this host's plugins folder, where it is picked up within seconds. Its tools then wait for"
                + " the user's grant (plugins.grant agent.tool.register) before the agent can call them.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\",\"description\":"
                + "\"The plugin module's folder (default: the workspace root)\"}},\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        Path module = call.path().orElseThrow().absolute();
        Optional<Path> dataDir = HostPaths.dataDir(context);
        if (dataDir.isEmpty()) {
            return ToolResult.error(ErrorCode.TOOL_FAILED, "this host has no data dir (pi.host.data), so no plugins"
                    + " folder to install into");
        }
        Duration left = Duration.between(Instant.now(), call.deadline()).minus(MARGIN);
        Pack.Result r;
        try {
            r = new Pack().pack(module, dataDir.get(), HostPaths.sdk(context),
                    line -> call.output(ToolCall.Stream.STDOUT, line + "\n"),
                    left.isNegative() ? Duration.ZERO : left, call::onCancel);
        } catch (KitException e) {
            String text = e.detail().isEmpty() ? e.getMessage() : e.getMessage() + "; the build's last lines:\n"
                    + e.detail();
            return ToolResult.error(code(e.kind()), text);
        }
        String report = ReportText.render(r.jar().getFileName().toString(), r.report());
        if (r.installed() == null) {
            return ToolResult.builder().error(ErrorCode.TOOL_FAILED)
                    .text(report + "Not installed: fix the errors above and pack again.")
                    .detail("valid", false).build();
        }
        StringBuilder text = new StringBuilder(report).append("Installed as ").append(r.installed()).append('.');
        r.sameIdElsewhere().forEach(p -> text.append("\nwarning: ").append(p)
                .append(" declares the same plugin id; the user should remove it"));
        text.append("\nThe user grants it with plugins.grant (agent.tool.register for ")
                .append(r.report().descriptor().id()).append(").");
        return ToolResult.builder().text(text.toString())
                .detail("valid", true)
                .detail("pluginId", r.report().descriptor().id())
                .detail("installed", r.installed().toString())
                .build();
    }

    private static ErrorCode code(KitException.Kind kind) {
        switch (kind) {
            case USAGE:
                return ErrorCode.INVALID_ARGUMENT;
            case TIMEOUT:
                return ErrorCode.TOOL_TIMEOUT;
            case CANCELLED:
                return ErrorCode.TOOL_ABORTED;
            default:
                return ErrorCode.TOOL_FAILED;
        }
    }
}
