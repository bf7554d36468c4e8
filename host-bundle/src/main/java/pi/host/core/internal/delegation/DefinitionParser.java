package pi.host.core.internal.delegation;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
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
    private static final YAMLMapper YAML = yaml();

    private DefinitionParser() {
    }

    private static YAMLMapper yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(20); // a definition has no use for alias bombs
        options.setCodePointLimit(DefinitionLoader.MAX_FILE_BYTES);
        YAMLMapper mapper = new YAMLMapper(YAMLFactory.builder().loaderOptions(options).build());
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return mapper;
    }

    /** A parsed file: a definition, or the reason it was skipped. */
    public record Parsed(SubagentDefinition definition, String skipped) {
        static Parsed skip(String reason) {
            return new Parsed(null, reason);
        }
    }

    public static Parsed parse(String text, SubagentSource source, String file) {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        String[] lines = t.split("\r?\n", -1);
        if (lines.length == 0 || !lines[0].strip().equals("---")) {
            return Parsed.skip("no YAML front matter (the file must start with a '---' line)");
        }
        int end = -1;
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].strip().equals("---")) {
                end = i;
                break;
            }
        }
        if (end < 0) {
            return Parsed.skip("the YAML front matter is not closed by a '---' line");
        }
        String frontMatter = String.join("\n", java.util.Arrays.asList(lines).subList(1, end));
        String body = String.join("\n", java.util.Arrays.asList(lines).subList(end + 1, lines.length)).strip();
        JsonNode yaml;
        try {
            yaml = YAML.readTree(frontMatter);
        } catch (JsonProcessingException | RuntimeException e) {
            String hint = BARE_STAR.matcher(frontMatter).find()
                    ? " (write tools: \"*\" with quotes: a bare * starts a YAML alias)" : "";
            return Parsed.skip("malformed YAML front matter: " + firstLine(e.getMessage()) + hint);
        }
        if (yaml == null || !yaml.isObject()) {
            return Parsed.skip("the YAML front matter is not a mapping of keys");
        }
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

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
