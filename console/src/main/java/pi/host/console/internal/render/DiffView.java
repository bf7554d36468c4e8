package pi.host.console.internal.render;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The {@code review} records of a Write or Edit (PROTOCOL.md ReviewChange) as a coloured diff: one
 * summary line per file with its snapshot id (what {@code /rollback} takes), then each hunk with the
 * line numbers of the side the line belongs to.
 */
final class DiffView {

    private DiffView() {
    }

    static List<Row> render(JsonNode review) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode change : review) {
            rows.add(summary(change));
            if (change.path("binary").asBoolean()) {
                rows.add(Lines.note("(binary file: no diff shown)"));
                continue;
            }
            rows.addAll(hunks(change.path("hunks")));
            if (change.path("truncated").asBoolean()) {
                rows.add(Lines.note("(diff cut: the change is too large to show whole)"));
            }
        }
        return rows;
    }

    private static Row summary(JsonNode change) {
        AttributedStringBuilder b = new AttributedStringBuilder()
                .append(Text.sanitize(change.path("path").asText()), Styles.BOLD)
                .append("  ").append(change.path("status").asText())
                .append("  ").append("+" + change.path("additions").asInt(), Styles.ADDED)
                .append(" ").append("-" + change.path("deletions").asInt(), Styles.REMOVED);
        if (change.path("reversible").asBoolean(false) && change.hasNonNull("snapshotId")) {
            b.append("  (undo: /rollback " + change.get("snapshotId").asText() + ")", Styles.DIM);
        }
        return new Row(b.toAttributedString(), 2);
    }

    private static List<Row> hunks(JsonNode hunks) {
        int gutter = 1;
        for (JsonNode h : hunks) {
            gutter = Math.max(gutter, digits(h.path("oldStart").asInt() + h.path("oldLines").asInt()));
            gutter = Math.max(gutter, digits(h.path("newStart").asInt() + h.path("newLines").asInt()));
        }
        List<Row> rows = new ArrayList<>();
        for (JsonNode h : hunks) {
            int oldLine = h.path("oldStart").asInt();
            int newLine = h.path("newStart").asInt();
            rows.add(Row.of("@@ -" + oldLine + "," + h.path("oldLines").asInt() + " +" + newLine + ","
                    + h.path("newLines").asInt() + " @@", Styles.HUNK));
            for (JsonNode l : h.path("lines")) {
                String line = l.asText();
                char sign = line.isEmpty() ? ' ' : line.charAt(0);
                String body = line.isEmpty() ? "" : line.substring(1);
                AttributedStyle style;
                int number;
                if (sign == '+') {
                    style = Styles.ADDED;
                    number = newLine++;
                } else if (sign == '-') {
                    style = Styles.REMOVED;
                    number = oldLine++;
                } else {
                    style = Styles.DIM;
                    number = newLine++;
                    oldLine++;
                }
                rows.add(diffLine(String.valueOf(number), gutter, sign, body, style));
            }
        }
        return rows;
    }

    private static Row diffLine(String number, int gutter, char sign, String body, AttributedStyle style) {
        String pad = " ".repeat(Math.max(0, gutter - number.length()));
        return new Row(new AttributedStringBuilder().append(pad).append(number, Styles.DIM).append(" ")
                .append(String.valueOf(sign), style).append(" ").append(Text.sanitize(body), style)
                .toAttributedString(), gutter + 3);
    }

    private static int digits(int n) {
        return String.valueOf(Math.max(1, n)).length();
    }
}
