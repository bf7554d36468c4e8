package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * How much room a JSON value takes on the wire, and a copy of it cut to fit a budget: a long string
 * keeps its head and tail, arrays and objects keep their first entries, nesting stops at a depth.
 * Sizes are characters of the compact JSON text with escapes counted as Jackson writes them, so the
 * bound holds whatever the tool put in. Each cut is noted ({@code details.matches: 100 of 5000 items
 * kept}) so the result can say what is missing.
 */
final class JsonBudget {

    /** Deepest nesting kept when a value is cut. */
    static final int MAX_DEPTH = 32;
    /** Notes kept; further cuts are counted, not described. */
    private static final int MAX_NOTES = 5;

    private final List<String> notes = new ArrayList<>();
    private int unnoted;
    private long left;

    private JsonBudget(long budget) {
        this.left = budget;
    }

    /** The serialized size of {@code node}, or a number above {@code limit} as soon as it is known to exceed it. */
    static long size(JsonNode node, long limit) {
        return size(node, limit, 0);
    }

    private static long size(JsonNode node, long limit, long used) {
        switch (node.getNodeType()) {
            case OBJECT: {
                long n = used + 2;
                Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
                boolean first = true;
                while (fields.hasNext() && n <= limit) {
                    Map.Entry<String, JsonNode> f = fields.next();
                    n = size(f.getValue(), limit, n + (first ? 0 : 1) + text(f.getKey()) + 1); // ,"key":
                    first = false;
                }
                return n;
            }
            case ARRAY: {
                long n = used + 2;
                for (int i = 0; i < node.size() && n <= limit; i++) {
                    n = size(node.get(i), limit, n + (i == 0 ? 0 : 1));
                }
                return n;
            }
            case STRING:
                return used + text(node.textValue());
            case NUMBER:
                return used + node.asText().length();
            case BOOLEAN:
                return used + (node.booleanValue() ? 4 : 5);
            default:
                return used + 4;
        }
    }

    /** A JSON string's length with quotes and escapes, as Jackson writes it. */
    static long text(String s) {
        long n = s.length() + 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f') {
                n += 1;
            } else if (c < 0x20) {
                n += 5; // backslash, u, four hex digits
            }
        }
        return n;
    }

    /**
     * A copy of {@code node} that takes at most about {@code budget} characters, with the cuts noted
     * under the name {@code where}.
     */
    static Cut cut(ObjectNode node, long budget, String where) {
        JsonBudget b = new JsonBudget(budget);
        JsonNode copy = b.copy(node, where, 0);
        return new Cut((ObjectNode) copy, b.notes, b.unnoted);
    }

    /** A cut copy and what was cut. */
    record Cut(ObjectNode value, List<String> notes, int unnoted) {
    }

    private JsonNode copy(JsonNode node, String where, int depth) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (depth > MAX_DEPTH && node.isContainerNode()) {
            note(where + ": nested deeper than " + MAX_DEPTH + " levels, left out");
            left -= 6;
            return nodes.nullNode();
        }
        if (node.isObject()) {
            ObjectNode out = nodes.objectNode();
            left -= 2;
            int kept = 0;
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                long need = text(f.getKey()) + 1 + Math.min(size(f.getValue(), left), 16);
                if (left - need < 0) {
                    break;
                }
                left -= text(f.getKey()) + 2;
                out.set(f.getKey(), copy(f.getValue(), where + "." + f.getKey(), depth + 1));
                kept++;
            }
            if (kept < node.size()) {
                note(where + ": " + kept + " of " + node.size() + " fields kept");
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = nodes.arrayNode();
            left -= 2;
            int kept = 0;
            for (int i = 0; i < node.size(); i++) {
                JsonNode e = node.get(i);
                if (left - Math.min(size(e, left), 16) - 1 < 0) {
                    break;
                }
                left -= 1;
                out.add(copy(e, where + "[" + i + "]", depth + 1));
                kept++;
            }
            if (kept < node.size()) {
                note(where + ": " + kept + " of " + node.size() + " items kept");
            }
            return out;
        }
        if (node.isTextual()) {
            String s = node.textValue();
            long full = text(s);
            if (full > left) {
                // head and tail, like the text: the end of an output is as telling as its start
                long room = Math.max(0, left - 64);
                int keep = (int) Math.min(s.length(), room * s.length() / Math.max(1, full));
                int head = OutputLimits.safeCut(s, keep / 2);
                int tail = OutputLimits.safeCut(s, s.length() - (keep - keep / 2));
                note(where + ": " + (head + s.length() - tail) + " of " + s.length() + " characters kept");
                s = s.substring(0, head) + "[... " + (tail - head) + " characters cut ...]" + s.substring(tail);
            }
            left -= text(s);
            return nodes.textNode(s);
        }
        left -= size(node, Long.MAX_VALUE);
        return node;
    }

    private void note(String what) {
        if (notes.size() < MAX_NOTES) {
            // a key can be as long as the tool made it: a note stays one short line
            notes.add(what.length() <= 200 ? what : what.substring(0, OutputLimits.safeCut(what, 197)) + "...");
        } else {
            unnoted++;
        }
    }
}
