package pi.host.core.internal.registry;

import java.util.Set;
import java.util.regex.Pattern;

/** The naming rules of spec §11 and the MCP bridge: how a provider's tool name becomes the exposed name. */
public final class ToolNaming {

    /** Names reserved for the host's own tools; nothing else may be exposed under them. */
    public static final Set<String> BUILTIN_NAMES = Set.of(
            "Read", "Glob", "Grep", "Write", "Edit", "Bash", "TodoWrite", "asktool", "new_context",
            "BrowserPreview", "EnterPlanMode", "SubmitPlan", "EnterGoalMode", "SubmitGoal", "ToolSearch",
            "Task", "TaskWait", "TaskList", "TaskStop", "Skill", "PluginCheck", "PluginScaffold", "PluginPack",
            "JevClassify");

    /** What model APIs accept as a function name. */
    private static final Pattern EXPOSED = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** A provider's own tool name: ASCII, starting with a letter. */
    private static final Pattern LOCAL = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,47}");
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9]");

    private ToolNaming() {
    }

    /** A plugin id with every character outside {@code [A-Za-z0-9]} replaced by {@code _}. */
    public static String safeId(String id) {
        return UNSAFE.matcher(id).replaceAll("_");
    }

    /** Why {@code localName} cannot be a tool name, or null when it can. */
    public static String checkLocalName(String localName) {
        if (localName == null || localName.isEmpty()) {
            return "the tool declares no name (service property pi.tool.name)";
        }
        if (!LOCAL.matcher(localName).matches()) {
            return "tool name '" + localName + "' must start with an ASCII letter and use only letters, digits,"
                    + " '_' and '-' (at most 48 characters)";
        }
        return null;
    }

    /** The name the model sees for a tool of the given origin. */
    public static String exposedName(ToolOrigin origin, String owner, String localName) {
        switch (origin) {
            case PLUGIN:
                return "plugin_" + safeId(owner) + "_" + localName;
            case MCP:
                return "mcp_" + safeId(owner) + "_" + localName;
            default:
                return localName;
        }
    }

    /** The internal full name: {@code plugin.<id>.<tool>}, {@code mcp.<server>.<tool>}, or the builtin name. */
    public static String internalName(ToolOrigin origin, String owner, String localName) {
        switch (origin) {
            case PLUGIN:
                return "plugin." + owner + "." + localName;
            case MCP:
                return "mcp." + owner + "." + localName;
            default:
                return localName;
        }
    }

    /** True when an exposed name fits what model APIs accept. */
    public static boolean validExposedName(String name) {
        return EXPOSED.matcher(name).matches();
    }
}
