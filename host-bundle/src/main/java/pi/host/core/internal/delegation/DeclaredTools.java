package pi.host.core.internal.delegation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import pi.host.core.internal.registry.ToolNaming;

/**
 * A definition's {@code tools:} declaration and the rules of spec §10.2 that turn it into the
 * delegate's tool set:
 *
 * <pre>
 * tools:                       the delegate gets
 * (none, null, [])             Read, Glob, Grep
 * "*"                          the seven working tools
 * [Read, Bash]                 those names, drawn only from the seven working tools
 * inherit / [inherit, Bash]    the session's catalog keys (deferred plugin/MCP tools included)
 *                              ∪ the extras, minus Task/TaskWait/TaskList/TaskStop,
 *                              EnterPlanMode/EnterGoalMode, asktool, new_context, ToolSearch
 * </pre>
 *
 * Any other name is dropped with a warning: unknown names, the withdrawn A2A and Peer, builtins that
 * cannot be assigned (TodoWrite, Task, …), and plugin, MCP and Skill names, which reach a delegate
 * only through {@code inherit}. Without {@code inherit} the set never depends on the session, so a
 * delegate cannot gain a tool because its parent has it. Builtin definitions do not opt in to
 * {@code inherit}; the token is dropped from them with a warning.
 *
 * @param inherit true when the definition opted in to the session's catalog
 * @param names the assignable names declared (a subset of {@link #WORKING_TOOLS}, in that order)
 */
public record DeclaredTools(boolean inherit, List<String> names) {

    /** The seven working tools: the only names a definition may list itself. */
    public static final List<String> WORKING_TOOLS =
            List.of("Read", "Glob", "Grep", "BrowserPreview", "Bash", "Edit", "Write");
    /** What a definition that declares no (usable) tool gets. */
    public static final List<String> DEFAULT_TOOLS = List.of("Read", "Glob", "Grep");
    /** Removed from an inherited catalog: delegation, mode transitions and the parent's control tools. */
    public static final Set<String> NEVER_INHERITED = Set.of("Task", "TaskWait", "TaskList", "TaskStop",
            "EnterPlanMode", "EnterGoalMode", "asktool", "new_context", "ToolSearch");
    /** Withdrawn tools (D326 / ADR 0165), still named by old definitions. */
    public static final Set<String> WITHDRAWN = Set.of("A2A", "Peer");
    public static final String INHERIT = "inherit";
    public static final String ALL = "*";

    public DeclaredTools {
        names = List.copyOf(names);
    }

    /**
     * Reads a {@code tools:} value: absent or null, a string ({@code "*"}, {@code "inherit"}, or names
     * separated by commas) or a list of strings. Every name it drops adds a warning.
     */
    public static DeclaredTools declare(JsonNode tools, SubagentSource source, List<String> warnings) {
        List<String> tokens = new ArrayList<>();
        if (tools == null || tools.isNull() || tools.isMissingNode()) {
            return new DeclaredTools(false, List.of());
        }
        if (tools.isTextual()) {
            for (String part : tools.textValue().split(",")) {
                if (!part.isBlank()) {
                    tokens.add(part.strip());
                }
            }
        } else if (tools.isArray()) {
            for (JsonNode item : tools) {
                if (item.isTextual()) {
                    tokens.add(item.textValue().strip());
                } else {
                    warnings.add("tools: " + item + " is not a tool name; dropped");
                }
            }
        } else {
            warnings.add("tools: must be \"*\", \"inherit\" or a list of tool names, not " + tools
                    + "; the delegate gets " + String.join(", ", DEFAULT_TOOLS));
            return new DeclaredTools(false, List.of());
        }
        boolean inherit = false;
        Set<String> names = new LinkedHashSet<>();
        for (String token : tokens) {
            if (INHERIT.equals(token)) {
                if (source == SubagentSource.BUILTIN) {
                    warnings.add("tools: builtin definitions do not opt in to 'inherit'; dropped");
                } else {
                    inherit = true;
                }
            } else if (ALL.equals(token)) {
                names.addAll(WORKING_TOOLS);
            } else if (WORKING_TOOLS.contains(token)) {
                names.add(token);
            } else {
                warnings.add("tools: " + whyDropped(token));
            }
        }
        List<String> ordered = new ArrayList<>();
        for (String t : WORKING_TOOLS) {
            if (names.contains(t)) {
                ordered.add(t);
            }
        }
        if (!inherit && ordered.isEmpty() && !tokens.isEmpty()) {
            warnings.add("tools: no usable tool is left; the delegate gets " + String.join(", ", DEFAULT_TOOLS));
        }
        return new DeclaredTools(inherit, ordered);
    }

    private static String whyDropped(String name) {
        if (WITHDRAWN.contains(name)) {
            return "'" + name + "' is a withdrawn tool; dropped";
        }
        if (name.startsWith("plugin_") || name.startsWith("mcp_") || "Skill".equals(name)) {
            return "'" + name + "' is a plugin, MCP or Skill tool, which a delegate gets only through 'inherit';"
                    + " dropped";
        }
        if (ToolNaming.BUILTIN_NAMES.contains(name)) {
            return "'" + name + "' cannot be assigned to a delegate (only " + String.join(", ", WORKING_TOOLS)
                    + "); dropped";
        }
        return "unknown tool '" + name + "'; dropped";
    }

    /**
     * The delegate's tool set, sorted. {@code catalogKeys} (the names the session's mode offers,
     * deferred ones included) is read only when the definition opted in to {@code inherit}.
     */
    public Set<String> resolve(Collection<String> catalogKeys) {
        Set<String> out = new TreeSet<>();
        if (inherit) {
            out.addAll(catalogKeys);
            out.addAll(names);
            out.removeAll(NEVER_INHERITED);
            return out;
        }
        out.addAll(names.isEmpty() ? DEFAULT_TOOLS : names);
        return out;
    }

    /** The declaration as written back for clients: {@code inherit} first when present, then the names. */
    public List<String> declared() {
        List<String> out = new ArrayList<>();
        if (inherit) {
            out.add(INHERIT);
        }
        out.addAll(names);
        return out;
    }
}
