package pi.host.mcp.internal.elicit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import pi.host.mcp.internal.tools.ToolDefinition;
import pi.host.spi.McpHost.Question;

/**
 * An MCP elicitation form ({@code requestedSchema}: an object of flat string, number, integer, boolean and
 * enum fields) as the questions of one {@code ask.request}, and the user's answers back as the form's
 * {@code content}. A form this cannot ask faithfully (nested values, too many fields) is declined by the
 * caller; an answer that does not fit its field ends in a decline too, never in a guessed value.
 */
final class ElicitForm {

    static final int MAX_FIELDS = 10;
    static final int MAX_OPTIONS = 50;
    static final int MAX_TEXT = 2_000;

    private enum Kind {
        TEXT, NUMBER, INTEGER, BOOLEAN, CHOICE, CHOICES
    }

    /** One field: its key, how its answer is read, the choices offered and the values they stand for. */
    private record Field(String key, Kind kind, boolean required, List<String> labels, List<Object> values) {
    }

    private final List<Field> fields;
    private final List<Question> questions;

    private ElicitForm(List<Field> fields, List<Question> questions) {
        this.fields = fields;
        this.questions = questions;
    }

    /** The form for {@code schema}, or empty when it cannot be asked as questions. */
    @SuppressWarnings("unchecked")
    static Optional<ElicitForm> of(String serverId, String message, Map<String, Object> schema) {
        Object props = schema == null ? null : schema.get("properties");
        if (!(props instanceof Map<?, ?> properties) || properties.isEmpty() || properties.size() > MAX_FIELDS) {
            return Optional.empty();
        }
        List<?> required = schema.get("required") instanceof List<?> r ? r : List.of();
        List<Field> fields = new ArrayList<>();
        List<Question> questions = new ArrayList<>();
        for (Map.Entry<?, ?> e : properties.entrySet()) {
            if (!(e.getKey() instanceof String key) || !(e.getValue() instanceof Map<?, ?> raw)) {
                return Optional.empty();
            }
            Map<String, Object> p = (Map<String, Object>) raw;
            Optional<Field> field = field(key, p, required.contains(key));
            if (field.isEmpty()) {
                return Optional.empty();
            }
            fields.add(field.get());
            String label = text(p.get("title"), key) + (p.get("description") instanceof String d ? ": " + d : "")
                    + (field.get().required() ? "" : " (optional)");
            String head = questions.isEmpty() ? "The MCP server '" + serverId + "' asks: " + text(message, "") + "\n"
                    : "";
            questions.add(new Question(ToolDefinition.clean(head + label, MAX_TEXT), field.get().labels(),
                    field.get().kind() == Kind.CHOICES));
        }
        return Optional.of(new ElicitForm(fields, questions));
    }

    private static Optional<Field> field(String key, Map<String, Object> p, boolean required) {
        Object type = p.get("type");
        List<String> labels = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if ("array".equals(type) && p.get("items") instanceof Map<?, ?> items) {
            if (!choices(items, labels, values)) {
                return Optional.empty();
            }
            return Optional.of(new Field(key, Kind.CHOICES, required, labels, values));
        }
        if (choices(p, labels, values)) {
            return Optional.of(new Field(key, Kind.CHOICE, required, labels, values));
        }
        if ("boolean".equals(type)) {
            return Optional.of(new Field(key, Kind.BOOLEAN, required, List.of("yes", "no"), List.of(true, false)));
        }
        if ("number".equals(type)) {
            return Optional.of(new Field(key, Kind.NUMBER, required, List.of(), List.of()));
        }
        if ("integer".equals(type)) {
            return Optional.of(new Field(key, Kind.INTEGER, required, List.of(), List.of()));
        }
        if ("string".equals(type)) {
            return Optional.of(new Field(key, Kind.TEXT, required, List.of(), List.of()));
        }
        return Optional.empty();
    }

    /** Reads {@code enum} (with optional {@code enumNames}) or {@code oneOf}/{@code anyOf} of {const, title}. */
    private static boolean choices(Map<?, ?> p, List<String> labels, List<Object> values) {
        if (p.get("enum") instanceof List<?> options) {
            List<?> names = p.get("enumNames") instanceof List<?> n && n.size() == options.size() ? n : options;
            for (int i = 0; i < options.size(); i++) {
                labels.add(text(names.get(i), String.valueOf(options.get(i))));
                values.add(options.get(i));
            }
        } else if ((p.get("oneOf") instanceof List<?> o || p.get("anyOf") instanceof List<?>)) {
            List<?> options = p.get("oneOf") instanceof List<?> one ? one : (List<?>) p.get("anyOf");
            for (Object option : options) {
                if (!(option instanceof Map<?, ?> m) || !m.containsKey("const")) {
                    return false;
                }
                labels.add(text(m.get("title"), String.valueOf(m.get("const"))));
                values.add(m.get("const"));
            }
        } else {
            return false;
        }
        return !labels.isEmpty() && labels.size() <= MAX_OPTIONS && labels.stream().distinct().count() == labels.size();
    }

    List<Question> questions() {
        return questions;
    }

    /**
     * The form's content from one answer per question, or empty (declined) when an answer does not fit
     * or none was given at all: a skipped card is a decline, even for a form that requires nothing.
     */
    Optional<Map<String, Object>> content(List<Object> answers) {
        if (answers.size() != fields.size() || answers.stream().allMatch(ElicitForm::blank)) {
            return Optional.empty();
        }
        Map<String, Object> content = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            Object a = answers.get(i);
            if (blank(a)) {
                if (f.required()) {
                    return Optional.empty();
                }
                continue;
            }
            Optional<Object> value = value(f, a);
            if (value.isEmpty()) {
                return Optional.empty();
            }
            content.put(f.key(), value.get());
        }
        return Optional.of(content);
    }

    private static boolean blank(Object a) {
        return a == null || (a instanceof String s && s.isBlank()) || (a instanceof List<?> l && l.isEmpty());
    }

    private static Optional<Object> value(Field f, Object answer) {
        try {
            switch (f.kind()) {
                case TEXT:
                    return answer instanceof String s ? Optional.of(s) : Optional.empty();
                case NUMBER:
                    return Optional.of(Double.parseDouble(((String) answer).strip()));
                case INTEGER:
                    return Optional.of(Long.parseLong(((String) answer).strip()));
                case BOOLEAN:
                case CHOICE:
                    int at = f.labels().indexOf(answer);
                    return at < 0 ? Optional.empty() : Optional.of(f.values().get(at));
                default:
                    List<Object> picked = new ArrayList<>();
                    for (Object one : answer instanceof List<?> l ? l : List.of(answer)) {
                        int i = f.labels().indexOf(one);
                        if (i < 0) {
                            return Optional.empty();
                        }
                        picked.add(f.values().get(i));
                    }
                    return Optional.of(picked);
            }
        } catch (ClassCastException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String text(Object value, String fallback) {
        return value instanceof String s && !s.isBlank() ? s : fallback;
    }
}
