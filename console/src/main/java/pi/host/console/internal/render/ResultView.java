package pi.host.console.internal.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jline.utils.AttributedStringBuilder;
import pi.host.console.internal.input.Suggest;
import pi.host.console.internal.input.Usage;

/**
 * A ToolResult as a person reads it: Read and Edit as numbered file lines, Write and Edit with the
 * diff of their review records, Grep grouped by file, Bash's exit status (its output was streamed
 * while it ran), and a failure as its stable code and message, with the fix where the console knows
 * one (the usage line, the closest tool name, how to activate an on-demand tool).
 */
public final class ResultView {

    /**
     * What the view needs besides the result.
     *
     * @param streamed whether the call's output already reached the screen as {@code tool.output}
     * @param schema the tool's input schema, or null
     * @param toolNames the names this session can call (for "did you mean")
     */
    public record Call(String tool, JsonNode arguments, boolean streamed, JsonNode schema, Collection<String> toolNames) {
    }

    private ResultView() {
    }

    public static List<Row> render(Call call, JsonNode result) {
        List<Row> rows = new ArrayList<>();
        boolean ok = result.path("ok").asBoolean(false);
        List<String> texts = new ArrayList<>();
        result.path("content").forEach(c -> {
            if ("text".equals(c.path("type").asText())) {
                texts.add(c.path("text").asText());
            }
        });
        if ("Bash".equals(call.tool())) {
            rows.addAll(bash(call, result, ok, texts));
            return rows;
        }
        if (!ok) {
            rows.addAll(failure(call, result, texts));
            return rows;
        }
        String text = String.join("\n", texts);
        switch (call.tool()) {
            case "Read", "Write", "Edit" -> rows.addAll(FileView.render(text));
            case "Grep" -> rows.addAll(SearchView.grep(text, call.arguments().path("outputMode").asText("content"),
                    call.arguments().path("pattern").asText(call.arguments().path("query").asText(null)),
                    call.arguments().path("caseInsensitive").asBoolean(false)));
            case "Glob" -> rows.addAll(SearchView.paths(text));
            default -> rows.addAll(FileView.render(text));
        }
        JsonNode review = result.path("review");
        if (review.isArray() && review.size() > 0) {
            rows.addAll(DiffView.render(review));
        }
        if ("external".equals(result.path("root").asText())) {
            rows.add(Lines.note("(outside the workspace: " + result.path("path").asText() + ")"));
        }
        return rows;
    }

    /** Bash: the output when it was not streamed, then how the command ended. */
    private static List<Row> bash(Call call, JsonNode result, boolean ok, List<String> texts) {
        List<Row> rows = new ArrayList<>();
        JsonNode details = result.path("details");
        if (details.has("backgroundTaskId")) {
            String id = details.get("backgroundTaskId").asText();
            rows.add(Row.of("started in the background as " + id + " (/background read " + id + ")", Styles.OK));
            return rows;
        }
        if (!call.streamed()) {
            rows.addAll(StreamView.block(details.path("stdout").asText(""), false));
            rows.addAll(StreamView.block(details.path("stderr").asText(""), true));
        }
        String code = result.path("errorCode").asText(null);
        String duration = details.has("durationMs") ? " in " + details.get("durationMs").asLong() + " ms" : "";
        if (ok) {
            rows.add(Row.of("exit 0" + duration, Styles.OK));
        } else if ("TOOL_FAILED".equals(code) && details.has("exitCode")) {
            rows.add(Row.of("exit " + details.get("exitCode").asInt() + duration + " (TOOL_FAILED)", Styles.ERROR));
        } else if ("TOOL_ABORTED".equals(code)) {
            rows.add(Row.of("TOOL_ABORTED: stopped; the command's process tree was ended", Styles.ERROR));
        } else if ("TOOL_TIMEOUT".equals(code)) {
            rows.add(Row.of("TOOL_TIMEOUT: " + first(texts), Styles.ERROR));
        } else {
            rows.addAll(failure(call, result, texts));
        }
        if (details.path("truncated").asBoolean(false) || result.path("truncated").asBoolean(false)) {
            rows.add(Lines.note("(output cut by the host: the first and last 32 Ki characters of each stream are kept)"));
        }
        return rows;
    }

    /** A failed call: {@code CODE: message}, the rest of the text, and the fix where one is known. */
    private static List<Row> failure(Call call, JsonNode result, List<String> texts) {
        List<Row> rows = new ArrayList<>();
        String code = result.path("errorCode").asText("TOOL_FAILED");
        String all = String.join("\n", texts);
        List<String> lines = Lines.split(all);
        String message = lines.isEmpty() ? "(no message)" : lines.get(0);
        rows.add(new Row(new AttributedStringBuilder().append(code, Styles.ERROR).append(": ")
                .append(Text.sanitize(message)).append(hint(call, code), Styles.DIM).toAttributedString(), 2));
        if (lines.size() > 1) {
            rows.addAll(FileView.render(String.join("\n", lines.subList(1, lines.size()))));
        }
        return rows;
    }

    /** The fix for the failures a person typing can mend. */
    static String hint(Call call, String code) {
        switch (code) {
            case "UNKNOWN_TOOL": {
                String near = Suggest.closest(call.tool(), call.toolNames());
                return (near != null ? "; did you mean " + near + "?" : "") + "; /tools lists the tools of this mode";
            }
            case "TOOL_NOT_ACTIVE":
                return "; activate it first: ToolSearch query=" + call.tool();
            case "MODE_DENIED":
            case "PLUGIN_DISABLED_IN_PLAN":
                return "; the operating mode forbids it (/mode agent changes the mode)";
            case "INVALID_ARGUMENT":
                return call.schema() == null ? "" : "; usage: " + Usage.line(call.tool(), call.schema());
            default:
                return "";
        }
    }

    private static String first(List<String> texts) {
        return texts.isEmpty() ? "" : Lines.split(texts.get(0)).stream().findFirst().orElse("");
    }
}
