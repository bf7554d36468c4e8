package pi.host.console.internal.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The screens that wait for the person: a permission card (tool, risk, reason, the argument
 * preview, the outside path, the asking delegate, then the keys), asktool's questions, and a plan
 * or goal waiting for approval.
 */
public final class CardView {

    /** Preview values longer than this are cut on the card (the whole value is in the call). */
    static final int PREVIEW_CHARS = 400;
    /** Lines of a plan shown on its screen; the artifact holds all of it. */
    static final int PLAN_LINES = 40;

    private CardView() {
    }

    public static List<Row> permission(JsonNode card) {
        List<Row> rows = new ArrayList<>();
        String risk = card.path("risk").asText("?");
        rows.add(new Row(new AttributedStringBuilder().append("+-- permission: ", Styles.WARN)
                .append(Text.sanitize(card.path("toolName").asText()), Styles.BOLD)
                .append(" (" + Text.sanitize(risk) + " risk)", riskStyle(risk))
                .toAttributedString(), 4));
        rows.add(field("reason", card.path("reason").asText("")));
        JsonNode preview = card.path("preview");
        if (preview.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = preview.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                rows.addAll(value(f.getKey(), f.getValue()));
            }
        } else if (!preview.isMissingNode() && !preview.isNull()) {
            rows.add(field("arguments", preview.toString()));
        }
        if (card.hasNonNull("externalPath")) {
            rows.add(new Row(new AttributedStringBuilder().append("|  ", Styles.WARN)
                    .append("outside the workspace: ", Styles.WARN)
                    .append(Text.sanitize(card.get("externalPath").asText()), Styles.BOLD).toAttributedString(), 3));
        }
        if (card.hasNonNull("delegate")) {
            rows.add(field("asked by delegate", card.get("delegate").asText()));
        }
        return rows;
    }

    /** The argument preview, one row per line of a multi-line value (a Write's content, Edit's ops). */
    private static List<Row> value(String key, JsonNode v) {
        String text = v.isTextual() ? v.asText() : v.toString();
        boolean cut = text.length() > PREVIEW_CHARS;
        if (cut) {
            text = text.substring(0, PREVIEW_CHARS);
        }
        List<Row> rows = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        if (lines.length == 1) {
            rows.add(field(key, lines[0] + (cut ? " ... (" + v.asText().length() + " characters)" : "")));
            return rows;
        }
        rows.add(field(key, ""));
        for (String line : lines) {
            rows.add(new Row(new AttributedStringBuilder().append("|    ", Styles.WARN).append(Text.sanitize(line))
                    .toAttributedString(), 5));
        }
        if (cut) {
            rows.add(new Row(new AttributedStringBuilder().append("|    ", Styles.WARN)
                    .append("... (" + v.asText().length() + " characters in all)", Styles.DIM).toAttributedString(), 5));
        }
        return rows;
    }

    private static Row field(String key, String value) {
        return new Row(new AttributedStringBuilder().append("|  ", Styles.WARN).append(key + ": ", Styles.DIM)
                .append(Text.sanitize(value)).toAttributedString(), 3);
    }

    /** The question under a permission card. */
    public static Row permissionKeys() {
        return keys("o", "allow once", "s", "allow for this session", "d", "deny", "Enter", "deny");
    }

    /** The question under a plan waiting for approval. */
    public static Row planKeys() {
        return keys("a", "approve, then ask", "e", "approve, accept edits", "u", "approve, auto", "r", "reject",
                "Enter", "later (/plan)");
    }

    /** The last row of a waiting screen: each key, then what it does. */
    public static Row keys(String... keyThenMeaning) {
        AttributedStringBuilder b = new AttributedStringBuilder().append("+-- ", Styles.WARN);
        for (int i = 0; i + 1 < keyThenMeaning.length; i += 2) {
            b.append(i == 0 ? "" : "  ").append("[" + keyThenMeaning[i] + "]", Styles.KEY)
                    .append(" " + keyThenMeaning[i + 1]);
        }
        return new Row(b.append(" ? ").toAttributedString(), 4);
    }

    private static AttributedStyle riskStyle(String risk) {
        return "high".equals(risk) ? Styles.ERROR : "medium".equals(risk) ? Styles.WARN : Styles.DIM;
    }

    /** The head of an asktool request. */
    public static List<Row> askHeader(JsonNode request) {
        int n = request.path("questions").size();
        return List.of(Row.of("+-- asktool: " + n + " question" + (n == 1 ? "" : "s")
                + " (Enter skips one; a number picks an option; anything else is the answer)", Styles.WARN));
    }

    /** One question with its numbered options. */
    public static List<Row> question(int index, JsonNode q) {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(new AttributedStringBuilder().append("|  " + (index + 1) + ". ", Styles.WARN)
                .append(Text.sanitize(q.path("question").asText()), Styles.BOLD)
                .append(q.path("multiSelect").asBoolean() ? "  (several: 1,3)" : "", Styles.DIM)
                .toAttributedString(), 6));
        int i = 1;
        for (JsonNode o : q.path("options")) {
            String label = o.isTextual() ? o.asText() : o.path("label").asText();
            String description = o.isObject() ? o.path("description").asText("") : "";
            rows.add(new Row(new AttributedStringBuilder().append("|     ", Styles.WARN).append("[" + i++ + "] ", Styles.KEY)
                    .append(Text.sanitize(label)).append(description.isEmpty() ? "" : " - " + Text.sanitize(description),
                            Styles.DIM).toAttributedString(), 10));
        }
        return rows;
    }

    /** A plan (or goal) waiting for approval: where it is, its first lines, the keys. */
    public static List<Row> plan(JsonNode approval, String content) {
        List<Row> rows = new ArrayList<>();
        String kind = approval.path("kind").asText("plan");
        rows.add(new Row(new AttributedStringBuilder().append("+-- " + kind + " waiting for approval: ", Styles.WARN)
                .append(Text.sanitize(approval.path("artifactPath").asText()), Styles.BOLD)
                .append("  (" + approval.path("approvalId").asText() + ")", Styles.DIM).toAttributedString(), 4));
        if (content != null) {
            List<String> lines = Lines.split(content);
            for (String line : lines.subList(0, Math.min(PLAN_LINES, lines.size()))) {
                rows.add(new Row(new AttributedStringBuilder().append("|  ", Styles.WARN).append(Text.sanitize(line))
                        .toAttributedString(), 3));
            }
            if (lines.size() > PLAN_LINES) {
                rows.add(new Row(new AttributedStringBuilder().append("|  ", Styles.WARN)
                        .append("... " + (lines.size() - PLAN_LINES) + " more lines in the artifact", Styles.DIM)
                        .toAttributedString(), 3));
            }
        } else {
            rows.add(new Row(new AttributedStringBuilder().append("|  ", Styles.WARN)
                    .append("Read path=" + Text.sanitize(approval.path("artifactPath").asText()) + " shows it", Styles.DIM)
                    .toAttributedString(), 3));
        }
        return rows;
    }
}
