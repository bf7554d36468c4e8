package pi.host.console.internal.input;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** How to write a call of one tool, read from its input schema: {@code Read [path=<string>] [limit=<integer>]}. */
public final class Usage {

    private Usage() {
    }

    /** The usage line; arguments a schema marks as an alias ("Alias of path") are left out. */
    public static String line(String tool, JsonNode schema) {
        StringBuilder out = new StringBuilder(tool);
        if (schema == null) {
            return out.append(" key=value ...").toString();
        }
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        Iterator<Map.Entry<String, JsonNode>> props = schema.path("properties").fields();
        while (props.hasNext()) {
            Map.Entry<String, JsonNode> p = props.next();
            if (isAlias(p.getValue())) {
                continue;
            }
            String word = p.getKey() + "=<" + typeName(p.getValue()) + ">";
            out.append(' ').append(required.contains(p.getKey()) ? word : "[" + word + "]");
        }
        return out.toString();
    }

    /** The argument names, aliases included, in schema order. */
    public static List<String> names(JsonNode schema) {
        List<String> names = new java.util.ArrayList<>();
        if (schema != null) {
            schema.path("properties").fieldNames().forEachRemaining(names::add);
        }
        return names;
    }

    static boolean isAlias(JsonNode property) {
        return property.path("description").asText("").toLowerCase(Locale.ROOT).startsWith("alias of ");
    }

    private static String typeName(JsonNode property) {
        JsonNode e = property.get("enum");
        if (e != null && e.isArray() && e.size() > 0 && e.size() <= 6) {
            StringBuilder values = new StringBuilder();
            e.forEach(v -> values.append(values.length() == 0 ? "" : "|").append(v.asText()));
            return values.toString();
        }
        JsonNode type = property.path("type");
        if (type.isTextual()) {
            return type.asText();
        }
        return "value";
    }
}
