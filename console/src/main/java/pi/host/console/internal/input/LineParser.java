package pi.host.console.internal.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import pi.host.console.internal.input.Input.Argument;
import pi.host.console.internal.input.Input.Kind;

/**
 * The console's line grammar (PROTOCOL.md "bin/pi-host console"):
 * <pre>
 *   /command word ...                 a slash command; words may be quoted
 *   ToolName key=value ...            a value is bare, "double quoted" (\" \\ \n \t \r escapes; any other
 *                                     backslash stays), 'single quoted' (literal), or a JSON array/object;
 *                                     quoted and bare parts next to each other join, as in a shell
 *   ToolName {json}                   the arguments as one JSON object
 * </pre>
 * It never guesses: a line it cannot read is an {@link InputError} saying what is wrong and how to
 * write it.
 */
public final class LineParser {

    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private LineParser() {
    }

    /** Reads one typed line. */
    public static Input parse(String line) throws InputError {
        String text = line.strip();
        if (text.isEmpty()) {
            return new Input.Nothing();
        }
        if (text.startsWith("/")) {
            return command(text);
        }
        Scanner s = new Scanner(text);
        String tool = s.takeWhile(c -> !Character.isWhitespace(c) && c != '{');
        if (!TOOL_NAME.matcher(tool).matches()) {
            throw new InputError("'" + shorten(tool) + "' is not a tool name: write ToolName key=value ... (e.g. Read"
                    + " path=README.md) or ToolName {json}; /help lists the commands");
        }
        s.skipSpace();
        if (s.peek() == '{' || s.peek() == '[') {
            return new Input.ToolCall(tool, List.of(), jsonArguments(tool, s.rest()));
        }
        List<Argument> arguments = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (!s.atEnd()) {
            Argument a = argument(tool, s);
            if (!seen.add(a.key())) {
                throw new InputError("argument '" + a.key() + "' is given twice: give each argument once");
            }
            arguments.add(a);
            s.skipSpace();
        }
        return new Input.ToolCall(tool, List.copyOf(arguments), null);
    }

    private static Input command(String text) throws InputError {
        Scanner s = new Scanner(text.substring(1));
        String name = s.takeWhile(c -> !Character.isWhitespace(c));
        List<String> words = new ArrayList<>();
        s.skipSpace();
        while (!s.atEnd()) {
            words.add(value("/" + name, s).value());
            s.skipSpace();
        }
        return new Input.Command(name, List.copyOf(words));
    }

    private static ObjectNode jsonArguments(String tool, String json) throws InputError {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InputError("bad JSON after " + tool + ": " + jsonProblem(e) + "; write e.g. " + tool
                    + " {\"path\": \"README.md\"}");
        }
        if (!(node instanceof ObjectNode object)) {
            throw new InputError("the arguments of " + tool + " must be a JSON object, e.g. " + tool
                    + " {\"path\": \"README.md\"}");
        }
        return object;
    }

    private static Argument argument(String tool, Scanner s) throws InputError {
        int start = s.position();
        String key = s.takeWhile(c -> !Character.isWhitespace(c) && c != '=' && c != '"' && c != '\'');
        if (s.peek() != '=') {
            String word = key + s.takeWhile(c -> !Character.isWhitespace(c));
            s.seek(start);
            throw new InputError("expected key=value but found '" + shorten(word.isEmpty() ? s.rest() : word) + "': write "
                    + tool + " key=value ..., e.g. Read path=README.md or Bash command=\"ls -la\"");
        }
        if (key.isEmpty()) {
            throw new InputError("an argument has no name before '=': write key=value, e.g. path=README.md");
        }
        if (!KEY.matcher(key).matches()) {
            throw new InputError("'" + shorten(key) + "' is not an argument name: names are letters, digits and _");
        }
        s.next(); // '='
        Argument value = value(key + "=", s);
        return new Argument(key, value.value(), value.kind());
    }

    /** A value up to the next unquoted whitespace; {@code where} names it in errors ({@code path=}, {@code /audit}). */
    private static Argument value(String where, Scanner s) throws InputError {
        if (s.peek() == '{' || s.peek() == '[') {
            String raw = s.balancedJson(where);
            try {
                JSON.readTree(raw);
            } catch (JsonProcessingException e) {
                throw new InputError("bad JSON in " + where + ": " + jsonProblem(e));
            }
            if (!s.atEnd() && !Character.isWhitespace(s.peek())) {
                throw new InputError("unexpected text after the JSON value of " + where + ": put a space after it,"
                        + " or quote the whole value");
            }
            return new Argument(where, raw, Kind.JSON);
        }
        StringBuilder out = new StringBuilder();
        boolean quoted = false;
        while (!s.atEnd() && !Character.isWhitespace(s.peek())) {
            char c = s.next();
            if (c == '"') {
                quoted = true;
                s.doubleQuoted(where, out);
            } else if (c == '\'') {
                quoted = true;
                s.singleQuoted(where, out);
            } else {
                out.append(c);
            }
        }
        return new Argument(where, out.toString(), quoted ? Kind.QUOTED : Kind.BARE);
    }

    /** The first clause of Jackson's message (no source excerpt, no list of what it expected), and where it stopped. */
    static String jsonProblem(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        int cut = message.indexOf('\n');
        if (cut >= 0) {
            message = message.substring(0, cut);
        }
        cut = message.indexOf(": ");
        if (cut > 0) {
            message = message.substring(0, cut);
        }
        JsonLocation at = e.getLocation();
        return at == null || at.getColumnNr() < 1 ? message : message + " (at character " + at.getColumnNr() + ")";
    }

    static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
