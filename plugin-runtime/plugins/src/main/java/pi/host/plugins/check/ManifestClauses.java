package pi.host.plugins.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OSGi manifest header syntax ({@code path;path;attr=value;dir:=value, ...}), just enough to
 * read Import-Package and Bundle-ClassPath: commas and semicolons inside quotes do not split.
 */
final class ManifestClauses {

    /** One clause: its paths (package names, class path entries) and its attributes and directives. */
    record Clause(List<String> paths, Map<String, String> attributes, Map<String, String> directives) {
    }

    private ManifestClauses() {
    }

    static List<Clause> parse(String header) {
        List<Clause> clauses = new ArrayList<>();
        if (header == null || header.isBlank()) {
            return clauses;
        }
        for (String clause : split(header, ',')) {
            List<String> paths = new ArrayList<>();
            Map<String, String> attributes = new LinkedHashMap<>();
            Map<String, String> directives = new LinkedHashMap<>();
            for (String part : split(clause, ';')) {
                int directive = part.indexOf(":=");
                int attribute = part.indexOf('=');
                if (directive > 0 && directive <= attribute) {
                    directives.put(part.substring(0, directive).strip(), unquote(part.substring(directive + 2)));
                } else if (attribute > 0) {
                    String key = part.substring(0, attribute).strip();
                    // a typed attribute (version:Version="1.0") is keyed by its name
                    int colon = key.indexOf(':');
                    attributes.put(colon > 0 ? key.substring(0, colon) : key, unquote(part.substring(attribute + 1)));
                } else if (!part.isBlank()) {
                    paths.add(part.strip());
                }
            }
            if (!paths.isEmpty()) {
                clauses.add(new Clause(paths, attributes, directives));
            }
        }
        return clauses;
    }

    private static List<String> split(String s, char separator) {
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == separator && !quoted) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts;
    }

    private static String unquote(String value) {
        String v = value.strip();
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }
}
