package pi.host.core.internal.args;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;

/**
 * Folds the one accepted alias of a canonical argument name into the canonical name (tools spec §4,
 * D273), before the arguments are validated:
 *
 * <pre>
 * Read / Write / Edit / BrowserPreview   path     (alias file_path)
 * Glob / Grep                            pattern  (alias query)
 * </pre>
 *
 * Both spellings are optional in the schemas and exactly one is required: when a call carries both,
 * the canonical name wins and the alias is dropped; when it carries neither, the call fails with
 * INVALID_ARGUMENT. Other tools' arguments pass through unchanged.
 */
public final class ArgumentAliases {

    private record Alias(String canonical, String alias) {
    }

    private static final Alias PATH = new Alias("path", "file_path");
    private static final Alias PATTERN = new Alias("pattern", "query");

    private static final Map<String, Alias> BY_TOOL = Map.of(
            "Read", PATH,
            "Write", PATH,
            "Edit", PATH,
            "BrowserPreview", PATH,
            "Glob", PATTERN,
            "Grep", PATTERN);

    private ArgumentAliases() {
    }

    /**
     * The arguments with the tool's alias folded into its canonical name, as a new object (the
     * input is never changed; a tool without an alias gets a copy of its arguments).
     *
     * @throws ArgumentException when the arguments are not a JSON object, or the tool needs its
     *         canonical argument and the call names neither spelling
     */
    public static ObjectNode fold(String toolName, JsonNode arguments) throws ArgumentException {
        if (arguments == null || !arguments.isObject()) {
            throw new ArgumentException("arguments of " + toolName + " must be a JSON object, not "
                    + (arguments == null ? "nothing" : arguments.getNodeType().name().toLowerCase(Locale.ROOT)));
        }
        ObjectNode folded = ((ObjectNode) arguments).deepCopy();
        Alias alias = BY_TOOL.get(toolName);
        if (alias == null) {
            return folded;
        }
        JsonNode aliasValue = folded.remove(alias.alias());
        if (!folded.has(alias.canonical())) {
            if (aliasValue == null) {
                throw new ArgumentException(toolName + " requires the argument '" + alias.canonical()
                        + "' (or its alias '" + alias.alias() + "')");
            }
            folded.set(alias.canonical(), aliasValue);
        }
        return folded;
    }
}
