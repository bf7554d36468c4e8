package pi.host.core.internal.skills;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Pattern;
import pi.host.core.internal.markdown.FrontMatter;

/**
 * One SKILL.md: a YAML front matter with {@code name} and {@code description} (other keys, such as
 * {@code license} or {@code metadata}, are ignored) and a Markdown body, the skill's instructions. The
 * Agent Skills rules apply: the name is 1-64 lower-case letters, digits and single hyphens, the same as
 * its folder's name, and the description is a non-empty string of at most 1024 characters. A file that
 * breaks them is skipped with the reason.
 */
final class SkillParser {

    /** The file every skill folder holds. */
    static final String FILE = "SKILL.md";
    /** A skill's id (its folder's name) and name. */
    static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    static final int MAX_ID = 64;
    static final int MAX_DESCRIPTION = 1024;

    /** A parsed file: the description and the instructions, or why it was skipped. */
    record Parsed(String description, String instructions, String skipped) {
        static Parsed skip(String why) {
            return new Parsed(null, null, why);
        }
    }

    private SkillParser() {
    }

    /** True when {@code id} may name a skill folder. */
    static boolean validId(String id) {
        return id.length() <= MAX_ID && ID.matcher(id).matches();
    }

    static Parsed parse(String id, String text) {
        FrontMatter.Parsed parsed = FrontMatter.parse(text);
        if (!parsed.ok()) {
            return Parsed.skip(parsed.problem());
        }
        JsonNode name = parsed.yaml().get("name");
        if (name == null || !name.isTextual()) {
            return Parsed.skip("'name' is missing (it must be the folder's name, '" + id + "')");
        }
        if (!name.textValue().equals(id)) {
            return Parsed.skip("'name' is '" + cut(name.textValue()) + "' but the folder is '" + id
                    + "': they must be the same");
        }
        JsonNode description = parsed.yaml().get("description");
        if (description == null || !description.isTextual() || description.textValue().isBlank()) {
            return Parsed.skip("'description' must be a non-empty string");
        }
        String d = description.textValue().strip();
        if (d.length() > MAX_DESCRIPTION) {
            return Parsed.skip("'description' is longer than " + MAX_DESCRIPTION + " characters");
        }
        return new Parsed(d, parsed.body(), null);
    }

    private static String cut(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
