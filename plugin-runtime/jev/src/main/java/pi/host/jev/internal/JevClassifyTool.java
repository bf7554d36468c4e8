package pi.host.jev.internal;

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
import pi.host.spi.Builtin;
import pi.host.spi.Invocation;
import pi.host.spi.JevSettings;
import pi.host.spi.OfferedTool;
import pi.host.spi.PreparedTool;
import pi.host.spi.ToolKind;

/**
 * {@code JevClassify} (spec §2.1, §3): typed questions about a JSON state, answered by TypeSafe's Jev
 * classifier. An external provider operation, not a workspace tool: no path, no workspace permission
 * surface, low risk (the state goes where the user sent it by enabling Jev and saving a key; the settings
 * warn not to pass secrets). Offered only in Agent (the mode matrix), on demand, and only while Jev is
 * enabled and a key is saved ({@link #offer}); the request is bounded to 24 KiB before anything is sent,
 * the provider gets 45 s, and {@code tools.abort} cancels the request.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.JEV)
@Tool(name = "JevClassify", risk = Risk.LOW, deferred = true, timeoutMs = JevClassifyTool.TIMEOUT_MS,
        summary = "Classify a JSON state with typed questions (boolean, enum, number, string) through TypeSafe Jev")
public final class JevClassifyTool implements PreparedTool, OfferedTool {

    /** Above the provider's 45 s, so the provider timeout answers (PROVIDER_TIMEOUT) before the host's. */
    static final long TIMEOUT_MS = 60_000;

    private final JevSettings settings;
    private final JevClient client;

    @Activate
    public JevClassifyTool(@Reference JevSettings settings) {
        this(settings, new JevClient(JevClient::defaultClient, JevClient.PROVIDER_TIMEOUT));
    }

    JevClassifyTool(JevSettings settings, JevClient client) {
        this.settings = settings;
        this.client = client;
    }

    @Override
    public String description() {
        return "Ask Jev, a fast classifier, typed questions about a JSON state; returns one typed answer per question"
                + " and the reported usage. Types: boolean (yes/no, with its probability), enum and string (one of the"
                + " options you give; it never writes text), number (a level of the scale you give as options, lowest"
                + " first). Put only what the questions need in state, and never secrets or personal data: it is sent"
                + " to TypeSafe. At most 24 KiB per request.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"state\":{\"type\":\"object\",\"description\":\"The JSON state the questions are about\"},"
                + "\"questions\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":32,\"items\":{\"type\":\"object\","
                + "\"properties\":{"
                + "\"id\":{\"type\":\"string\",\"pattern\":\"^[A-Za-z][A-Za-z0-9_-]{0,63}$\"},"
                + "\"text\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":4000},"
                + "\"type\":{\"enum\":[\"boolean\",\"enum\",\"number\",\"string\"]},"
                + "\"options\":{\"type\":\"array\",\"maxItems\":255,\"items\":{\"type\":\"string\",\"minLength\":1,"
                + "\"maxLength\":500}}},"
                + "\"required\":[\"id\",\"text\",\"type\"],\"additionalProperties\":false}}},"
                + "\"required\":[\"state\",\"questions\"],\"additionalProperties\":false}";
    }

    @Override
    public Offer offer(Session session) {
        if (!settings.enabled()) {
            return Offer.no("Jev is not enabled (Settings: jev.enabled)");
        }
        if (!settings.keySaved()) {
            return Offer.no("no TypeSafe API key is saved (Settings: jev.apiKey)");
        }
        return Offer.yes();
    }

    @Override
    public Invocation prepare(Map<String, Object> arguments) {
        try {
            List<Question> questions = JevRequest.questions(arguments.get("questions"));
            return Invocation.of("JevClassify: " + questions.size() + (questions.size() == 1 ? " question" : " questions"));
        } catch (JevRequest.Invalid e) {
            return Invocation.invalid(e.getMessage());
        }
    }

    @Override
    public ToolResult execute(ToolCall call) {
        JevRequest request;
        try {
            request = JevRequest.of(call.arguments());
        } catch (JevRequest.Invalid e) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, e.getMessage());
        }
        if (request.tooLarge()) {
            return ProviderResults.tooLarge(request.size());
        }
        String key = settings.apiKey().orElse(null);
        if (!settings.enabled() || key == null) {
            return ToolResult.error(ErrorCode.TOOL_DENIED, "Jev was disabled or its key removed; nothing was sent");
        }
        if (request.carries(key)) {
            // the model may have read the key with an approved command; it goes in the header or nowhere
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "the arguments contain the saved TypeSafe API key;"
                    + " remove it from state and questions. Nothing was sent.");
        }
        JevClient.Reply reply = client.post(settings.endpoint(), key, request.body(), call::onCancel);
        return ProviderResults.of(reply, request.questions(), key);
    }
}
