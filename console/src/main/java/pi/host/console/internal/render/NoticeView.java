package pi.host.console.internal.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedStringBuilder;

/** One-line news from the host that no call waits for: background tasks, plugins, tools, MCP servers, the checklist. */
public final class NoticeView {

    private NoticeView() {
    }

    /** The rows for a notification, or none when it is not news for a person. */
    public static List<Row> render(String method, JsonNode p) {
        List<Row> rows = new ArrayList<>();
        switch (method) {
            case "background.updated" -> {
                JsonNode t = p.has("task") ? p.get("task") : p;
                String state = t.path("state").asText();
                String how = t.path("stopRequested").asBoolean() && "RUNNING".equals(state) ? "stopping"
                        : t.hasNonNull("exitCode") ? state + ", exit " + t.get("exitCode").asInt() : state;
                rows.add(line("background " + t.path("taskId").asText() + " (" + t.path("command").asText() + "): " + how));
            }
            case "plugins.changed" -> {
                String id = p.path("pluginId").asText();
                String state = p.path("state").asText();
                rows.add(line("plugin " + id + ": " + state
                        + ("awaiting-grant".equals(state) ? " (/plugins grant " + id + ")" : "")));
            }
            case "tools.changed" -> {
                List<String> parts = new ArrayList<>();
                p.path("added").forEach(n -> parts.add("+" + n.asText()));
                p.path("removed").forEach(n -> parts.add("-" + n.asText()));
                if (!parts.isEmpty()) {
                    rows.add(line("tools changed: " + String.join(" ", parts)));
                }
            }
            case "mcp.changed" -> {
                List<String> parts = new ArrayList<>();
                p.path("servers").forEach(s -> parts.add(s.path("id").asText() + " " + s.path("state").asText()));
                rows.add(line("MCP servers: " + String.join(", ", parts)));
            }
            case "session.state" -> rows.add(line("session is now in " + p.path("mode").asText() + " mode ("
                    + p.path("planState").asText() + ")"));
            case "todo.updated" -> {
                rows.add(line("checklist:"));
                for (JsonNode t : p.path("todos")) {
                    String mark = switch (t.path("status").asText()) {
                        case "completed" -> "[x] ";
                        case "in_progress" -> "[>] ";
                        default -> "[ ] ";
                    };
                    rows.add(new Row(new AttributedStringBuilder().append("  " + mark, Styles.DIM)
                            .append(Text.sanitize(t.path("content").asText())).toAttributedString(), 6));
                }
            }
            case "browser.preview" -> rows.add(line("preview of " + p.path("path").asText() + ": " + p.path("url").asText()));
            case "plan.approval.request" -> rows.add(line(p.path("kind").asText("plan") + " " + p.path("artifactPath").asText()
                    + " waits for approval (/plan)"));
            default -> {
                // permission.resolved of a card already answered, and the like: nothing to say
            }
        }
        return rows;
    }

    private static Row line(String text) {
        return new Row(new AttributedStringBuilder().append("* ", Styles.HUNK).append(Text.sanitize(text), Styles.DIM)
                .toAttributedString(), 2);
    }
}
