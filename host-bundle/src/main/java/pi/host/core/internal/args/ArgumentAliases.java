package pi.host.core.internal.args;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Folds the one accepted alias of a canonical argument name into the canonical name (tools spec §4,
 * D273), before the arguments are validated. Which tool accepts which alias is declared on the tool
 * itself ({@code @Builtin(aliases = "path=file_path")}, read once by the registry): Read, Write, Edit
 * and BrowserPreview take {@code file_path} for {@code path}, Glob and Grep {@code query} for
 * {@code pattern}.
 *
 * <p>Both spellings are optional in the schemas and exactly one is required: when a call carries both,
 * the canonical name wins and the alias is dropped; when it carries neither, the call fails with
 * INVALID_ARGUMENT. Other arguments pass through unchanged.
 */
public final class ArgumentAliases {

    /** One accepted alias of a canonical argument name. */
    public record Alias(String canonical, String alias) {

        public Alias {
            Objects.requireNonNull(canonical, "canonical");
            Objects.requireNonNull(alias, "alias");
            if (canonical.isEmpty() || alias.isEmpty() || canonical.equals(alias)) {
                throw new IllegalArgumentException("an alias names two different, non-empty arguments");
            }
        }

        /**
         * Reads a declaration {@code canonical=alias}.
         *
         * @throws IllegalArgumentException when it is not one
         */
        public static Alias parse(String declared) {
            int eq = declared.indexOf('=');
            if (eq < 0 || declared.indexOf('=', eq + 1) >= 0) {
                throw new IllegalArgumentException("an alias is declared as canonical=alias, not '" + declared + "'");
            }
            return new Alias(declared.substring(0, eq).strip(), declared.substring(eq + 1).strip());
        }
    }

    private ArgumentAliases() {
    }

    /**
     * The arguments with each alias folded into its canonical name, as a new object (the input is
     * never changed; a tool without an alias gets a copy of its arguments).
     *
     * @throws ArgumentException when the arguments are not a JSON object, or an aliased argument is
     *         missing under both spellings
     */
    public static ObjectNode fold(String toolName, List<Alias> aliases, JsonNode arguments) throws ArgumentException {
        if (arguments == null || !arguments.isObject()) {
            throw new ArgumentException("arguments of " + toolName + " must be a JSON object, not "
                    + (arguments == null ? "nothing" : arguments.getNodeType().name().toLowerCase(Locale.ROOT)));
        }
        ObjectNode folded = ((ObjectNode) arguments).deepCopy();
        for (Alias alias : aliases) {
            JsonNode aliasValue = folded.remove(alias.alias());
            if (!folded.has(alias.canonical())) {
                if (aliasValue == null) {
                    throw new ArgumentException(toolName + " requires the argument '" + alias.canonical()
                            + "' (or its alias '" + alias.alias() + "')");
                }
                folded.set(alias.canonical(), aliasValue);
            }
        }
        return folded;
    }
}
