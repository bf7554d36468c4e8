package pi.host.core.internal.images;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.execute.HostToolCall;
import pi.host.core.internal.json.ErrorText;
import pi.host.core.internal.session.SessionService;
import pi.host.spi.Builtin;
import pi.host.spi.Invocation;
import pi.host.spi.PreparedTool;
import pi.host.spi.ToolKind;

/**
 * {@code GenerateImages} (spec §12): a high-risk, Agent-only capability the host authorizes and the
 * desktop executes. The one pipeline runs the mode matrix (Plan and Goal deny it, even under auto), the
 * policy and the card (what the card shows is the prompt), admission and the audit row; this body then
 * asks the client that made the call ({@link ImageRequests}) and returns what it made. It touches no
 * workspace path itself: the images are files the client wrote below the session's scratch dir.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.IMAGES)
@Tool(name = "GenerateImages", risk = Risk.HIGH, deferred = true, timeoutMs = GenerateImagesTool.TIMEOUT_MS,
        summary = "Generate images from a text prompt (the desktop makes them; the user confirms)")
public final class GenerateImagesTool implements PreparedTool {

    /** Image models take tens of seconds; the budget covers a slow one and a queue before it. */
    static final long TIMEOUT_MS = 300_000;
    /** What the card and the audit row show of the prompt. */
    private static final int SHOWN_PROMPT = 300;

    private final ImageRequests requests;
    private final SessionService sessions;

    @Activate
    public GenerateImagesTool(@Reference ImageRequests requests, @Reference SessionService sessions) {
        this.requests = requests;
        this.sessions = sessions;
    }

    @Override
    public String description() {
        return "Generate images from a text prompt. The desktop makes them and saves them in the session's scratch"
                + " folder; the result lists their paths. Describe subject, style and composition in the prompt.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"prompt\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":32000,"
                + "\"description\":\"What to draw\"},"
                + "\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":4,\"description\":\"How many images (1)\"},"
                + "\"size\":{\"enum\":[\"auto\",\"1024x1024\",\"1536x1024\",\"1024x1536\"],"
                + "\"description\":\"Width x height, or auto (auto)\"}},"
                + "\"required\":[\"prompt\"],\"additionalProperties\":false}";
    }

    @Override
    public Invocation prepare(Map<String, Object> arguments) {
        Object count = arguments.getOrDefault("count", 1);
        return Invocation.of("GenerateImages (" + count + "): "
                + ErrorText.cut(String.valueOf(arguments.get("prompt")), SHOWN_PROMPT));
    }

    @Override
    public ToolResult execute(ToolCall call) {
        if (!(call instanceof HostToolCall)) {
            return ToolResult.error(ErrorCode.TOOL_DENIED, "no client is attached to make the images; nothing was sent");
        }
        HostToolCall host = (HostToolCall) call;
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("count", call.arguments().getOrDefault("count", 1));
        options.put("size", call.arguments().getOrDefault("size", "auto"));
        ImageRequests.Outcome outcome = requests.request(host.client(), call.sessionId(), call.turnId(),
                call.toolCallId(), () -> sessions.ensureScratch(call.sessionId()), (String) call.arguments().get("prompt"), options,
                call::onCancel, host::cancelReason);
        if (outcome instanceof ImageRequests.Made) {
            return made(((ImageRequests.Made) outcome).images());
        }
        if (outcome instanceof ImageRequests.Failed) {
            ImageRequests.Failed f = (ImageRequests.Failed) outcome;
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("message", f.message());
            if (f.code() != null) {
                error.put("code", f.code());
            }
            return ToolResult.builder().error(ErrorCode.TOOL_FAILED)
                    .text("The desktop could not generate the images: " + f.message()).detail("clientError", error)
                    .build();
        }
        if (outcome instanceof ImageRequests.Denied) {
            return ToolResult.error(ErrorCode.TOOL_DENIED, ((ImageRequests.Denied) outcome).why() + "; nothing was made");
        }
        // cancelled: the pipeline answers the abort or the timeout itself; this result is not used
        return ToolResult.error(ErrorCode.TOOL_ABORTED, "image generation was cancelled ("
                + ((ImageRequests.Cancelled) outcome).reason() + ")");
    }

    private static ToolResult made(List<GeneratedImage> images) {
        StringBuilder text = new StringBuilder("Generated ").append(images.size())
                .append(images.size() == 1 ? " image:" : " images:");
        List<Map<String, Object>> details = new ArrayList<>();
        for (GeneratedImage i : images) {
            text.append("\n- ").append(i.path());
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("path", i.path());
            d.put("mimeType", i.mimeType());
            d.put("bytes", i.bytes());
            details.add(d);
        }
        return ToolResult.builder().text(text.toString()).detail("images", details).build();
    }
}
