package pi.host.console.internal.input;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** What one typed line asks for. */
public sealed interface Input {

    /** A tool call: {@code ToolName key=value ...} (arguments still to be typed) or {@code ToolName {json}}. */
    record ToolCall(String tool, List<Argument> arguments, ObjectNode json) implements Input {
        /** Whether the arguments were given as one JSON object. */
        public boolean isJson() {
            return json != null;
        }
    }

    /** A slash command and its words ({@code /audit 5} is {@code audit}, {@code [5]}). */
    record Command(String name, List<String> words) implements Input {
    }

    /** An empty line. */
    record Nothing() implements Input {
    }

    /**
     * One {@code key=value} argument. {@code kind} says how the value was written: quoted (always a
     * string), bare (typed by the tool's schema), or a JSON array or object.
     */
    record Argument(String key, String value, Kind kind) {
    }

    /** How an argument's value was written. */
    enum Kind {
        QUOTED, BARE, JSON
    }
}
