package pi.host.core.internal.delegation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import pi.host.core.internal.markdown.FrontMatter;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.policy.PermissionModes;

/**
 * Parses one definition file: a YAML front matter between {@code ---} lines ({@code name},
 * {@code description}, {@code tools}, {@code permission}; other keys are ignored) and a Markdown
 * body, the delegate's instructions. A file that cannot be a definition (no or broken front matter,
 * no valid name or description) is skipped with a reason; what is merely wrong inside it (a tool
 * name, a project's permission scope) is dropped with a warning and the definition loads.
 */
public final class DefinitionParser {

    /** Names Task and {@code delegate.name} accept. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** A description longer than this is cut (it goes into Task's description for every prompt). */
    static final int MAX_DESCRIPTION = 1024;

    /** {@code tools: *} unquoted, the likeliest YAML mistake in a definition. */
    private static final Pattern BARE_STAR = Pattern.compile("(?m)^tools:\\s*\\*\\s*$");

    private DefinitionParser() {
    }

    /** A parsed file: a definition, or the reason it was skipped. */
    public record Parsed(SubagentDefinition definition, String skipped) {
        static Parsed skip(String reason) {
            return new Parsed(null, reason);
        }
    }

    public static Parsed parse(String text, SubagentSource source, String file) {
        FrontMatter.Parsed parsed = FrontMatter.parse(text);
        if (!parsed.ok()) {
            String hint = parsed.problem().startsWith("malformed") && BARE_STAR.matcher(parsed.source()).find()
                    ? " (write tools: \"*\" with quotes: a bare * starts a YAML alias)" : "";
            return Parsed.skip(parsed.problem() + hint);
        }
        JsonNode yaml = parsed.yaml();
        String body = parsed.body();
        JsonNode name = yaml.get("name");
        if (name == null || !name.isTextual() || !NAME.matcher(name.textValue()).matches()) {
            return Parsed.skip("'name' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or"
                    + " digit; got " + (name == null ? "none" : name.toString()));
        }
        JsonNode description = yaml.get("description");
        if (description == null || !description.isTextual() || description.textValue().isBlank()) {
            return Parsed.skip("'description' must be a non-empty string");
        }
        List<String> warnings = new ArrayList<>();
        DeclaredTools tools = DeclaredTools.declare(yaml.get("tools"), source, warnings);
        PermissionMode permission = permission(yaml.get("permission"), source, warnings);
        String desc = description.textValue().strip();
        if (desc.length() > MAX_DESCRIPTION) {
            desc = desc.substring(0, MAX_DESCRIPTION);
            warnings.add("description: cut to " + MAX_DESCRIPTION + " characters");
        }
        return new Parsed(new SubagentDefinition(name.textValue(), source, desc, body, tools, permission, file,
                warnings), null);
    }

    /**
     * The explicit scope, or null for inherit. A project definition's declaration is dropped (spec
     * §10.2: cloning a repository never grants a permission upgrade); an invalid value falls back to
     * inherit, the session's own mode.
     */
    private static PermissionMode permission(JsonNode value, SubagentSource source, List<String> warnings) {
        if (value == null || value.isNull()) {
            return null;
        }
        String word = value.isTextual() ? value.textValue().strip() : value.toString();
        if (PermissionModes.INHERIT.equals(word)) {
            return null;
        }
        if (source == SubagentSource.PROJECT) {
            warnings.add("permission: a project definition may not declare a permission scope; '" + word
                    + "' dropped, the delegate runs under the session's permission mode");
            return null;
        }
        PermissionMode mode = PermissionMode.parse(word).orElse(null);
        if (mode == null) {
            warnings.add("permission: '" + word + "' is not inherit, ask, accept-edits or auto; the delegate runs"
                    + " under the session's permission mode");
        }
        return mode;
    }
}
