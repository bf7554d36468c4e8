package pi.host.core.internal.control;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.events.HostEvents;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.StorageException;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code BrowserPreview} (spec §2): asks the desktop's browser to show a workspace file, with a
 * {@code browser.preview} notification. A read-only inspection, available in every mode; it fails
 * clearly when the browser is disabled in settings.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.PREVIEW, aliases = "path=file_path")
@Tool(name = "BrowserPreview", risk = Risk.LOW, deferred = true, pathArg = "path",
        pathKind = PathKind.EXISTING_FILE, timeoutMs = 30_000,
        summary = "Open a workspace file (e.g. an HTML page) in the desktop's browser preview")
public final class BrowserPreviewTool implements ToolProvider {

    private final SettingsService settings;
    private final HostEvents events;

    @Activate
    public BrowserPreviewTool(@Reference SettingsService settings, @Reference HostEvents events) {
        this.settings = settings;
        this.events = events;
    }

    @Override
    public String description() {
        return "Open a workspace-relative file in the desktop's browser preview (for example an HTML page you"
                + " built). Fails when the browser is disabled in settings.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"path\":{\"type\":\"string\",\"description\":\"Workspace-relative file to show\"},"
                + "\"file_path\":{\"type\":\"string\",\"description\":\"Alias of path\"}},"
                + "\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        try {
            if (!Boolean.parseBoolean(settings.values().get(SettingsService.BROWSER_ENABLED))) {
                return ToolResult.error(ErrorCode.TOOL_FAILED,
                        "the browser is disabled in settings (browser.enabled); nothing was opened");
            }
        } catch (StorageException e) {
            return ToolResult.error(ErrorCode.STORAGE_ERROR, "the settings cannot be read: " + e.getMessage());
        }
        ResolvedPath path = call.path().orElseThrow();
        if (path.root() != ResolvedPath.Root.WORKSPACE) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT,
                    "BrowserPreview shows workspace files only; " + path.display() + " is not in the workspace");
        }
        events.publish("browser.preview", Map.of("sessionId", call.sessionId(), "toolCallId", call.toolCallId(),
                "path", path.display(), "url", path.absolute().toUri().toString()));
        return ToolResult.builder().text("Opened " + path.display() + " in the browser preview.")
                .detail("url", path.absolute().toUri().toString()).build();
    }
}
