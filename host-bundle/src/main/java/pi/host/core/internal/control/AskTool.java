package pi.host.core.internal.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.json.Json;
import pi.host.spi.Builtin;
import pi.host.spi.ToolKind;

/**
 * {@code asktool}: asks the user one or more questions and returns the answers as tool output. The
 * interactive exception of spec §3: no expiry (its budget is the longest the host allows), and a
 * stop resolves it as skipped with empty answers.
 */
@Component(service = ToolProvider.class)
@Builtin(kind = ToolKind.CONTROL)
@Tool(name = "asktool", risk = Risk.LOW, timeoutMs = 24L * 3600 * 1000)
public final class AskTool implements ToolProvider {

    private final AskService asks;

    @Activate
    public AskTool(@Reference AskService asks) {
        this.asks = asks;
    }

    @Override
    public String description() {
        return "Ask the user one or more questions and wait for the answers. Options may be plain strings or"
                + " {label, description}; the chosen label is the answer. Use multiSelect for several choices.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{\"questions\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":10,"
                + "\"items\":{\"type\":\"object\",\"properties\":{"
                + "\"question\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":2000},"
                + "\"options\":{\"type\":\"array\",\"maxItems\":20,\"items\":{\"oneOf\":["
                + "{\"type\":\"string\",\"minLength\":1,\"maxLength\":200},"
                + "{\"type\":\"object\",\"properties\":{\"label\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":200},"
                + "\"description\":{\"type\":\"string\",\"maxLength\":1000}},\"required\":[\"label\"],"
                + "\"additionalProperties\":false}]}},"
                + "\"multiSelect\":{\"type\":\"boolean\"}},\"required\":[\"question\"],\"additionalProperties\":false}}},"
                + "\"required\":[\"questions\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) {
        JsonNode questions = Json.mapper().valueToTree(call.arguments().get("questions"));
        AskService.Answers answers = asks.ask(call.sessionId(), call.turnId(), call.toolCallId(), questions,
                call::onCancel);
        if (answers.overLimit()) {
            return ToolResult.error(ErrorCode.CARD_LIMIT, answers.why());
        }
        List<Object> values = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < questions.size(); i++) {
            JsonNode a = answers.skipped() || i >= answers.values().size() ? null : answers.values().get(i);
            String shown = a == null || a.isNull() ? "" : a.isArray() ? join((ArrayNode) a) : a.textValue();
            values.add(a == null || a.isNull() ? "" : Json.mapper().convertValue(a, Object.class));
            text.append("Q: ").append(questions.get(i).path("question").asText()).append('\n')
                    .append("A: ").append(shown).append('\n');
        }
        if (answers.skipped()) {
            text.append("(skipped: ").append(answers.why()).append(")\n");
        }
        return ToolResult.builder().text(text.toString()).detail("answers", values)
                .detail("skipped", answers.skipped()).build();
    }

    private static String join(ArrayNode a) {
        List<String> parts = new ArrayList<>();
        a.forEach(n -> parts.add(n.asText()));
        return String.join(", ", parts);
    }
}
