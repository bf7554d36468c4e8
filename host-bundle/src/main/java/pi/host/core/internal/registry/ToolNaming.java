package pi.host.core.internal.registry;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

/** The naming rules of spec §11 and the MCP bridge: how a provider's tool name becomes the exposed name. */
public final class ToolNaming {

    /** Names reserved for the host's own tools; nothing else may be exposed under them. */
    public static final Set<String> BUILTIN_NAMES = Set.of(
            "Read", "Glob", "Grep", "Write", "Edit", "Bash", "TodoWrite", "asktool", "new_context",
            "BrowserPreview", "EnterPlanMode", "SubmitPlan", "EnterGoalMode", "SubmitGoal", "ToolSearch",
            "Task", "TaskWait", "TaskList", "TaskStop", "Skill", "PluginCheck", "PluginScaffold", "PluginPack",
            "JevClassify", "GenerateImages");

    /** What model APIs accept as a function name. */
    private static final Pattern EXPOSED = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** A provider's own tool name: ASCII, starting with a letter. */
    private static final Pattern LOCAL = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,47}");
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9]");
    /** Longest exposed name (what model APIs accept). */
    public static final int MAX_EXPOSED = 64;
    /** Longest MCP tool name taken from a server (the MCP specification's bound). */
    public static final int MAX_MCP_TOOL_NAME = 128;
    /** Hex digits of the suffix that keeps a cut MCP name unique. */
    private static final int HASH_DIGITS = 8;

    private ToolNaming() {
    }

    /** An id or name with every character (code point) outside {@code [A-Za-z0-9]} replaced by {@code _}. */
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

    /**
     * Why an MCP server's tool name cannot be taken, or null when it can. The name is the server's to
     * choose (any characters); it only has to fit the MCP bound, since the exposed name is made safe anyway.
     */
    public static String checkMcpToolName(String toolName) {
        if (toolName == null || toolName.isEmpty()) {
            return "the MCP tool has no name";
        }
        if (toolName.length() > MAX_MCP_TOOL_NAME) {
            return "MCP tool name is longer than " + MAX_MCP_TOOL_NAME + " characters";
        }
        return null;
    }

    /** The name the model sees for a tool of the given origin. */
    public static String exposedName(ToolOrigin origin, String owner, String localName) {
        switch (origin) {
            case PLUGIN:
                return "plugin_" + safeId(owner) + "_" + localName;
            case MCP:
                return mcpName(owner, localName);
            default:
                return localName;
        }
    }

    /**
     * {@code mcp_<serverIdSafe>_<toolSafe>}: every character outside {@code [A-Za-z0-9_]} becomes {@code _}.
     * A name longer than 64 characters keeps its first 55 and gets {@code _} and 8 hex digits of the
     * SHA-256 of the server id and the tool's own name, so two long names that share their beginning never
     * collide and the same tool always gets the same name. Short names that collide after the replacement
     * (servers {@code a-b} and {@code a_b}) are left to the registry, which refuses the second.
     */
    public static String mcpName(String serverId, String toolName) {
        String full = "mcp_" + safeId(serverId) + "_" + safeId(toolName);
        if (full.length() <= MAX_EXPOSED) {
            return full;
        }
        String hash = sha256Hex(serverId + '\0' + toolName).substring(0, HASH_DIGITS);
        return full.substring(0, MAX_EXPOSED - HASH_DIGITS - 1) + "_" + hash;
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has SHA-256", e);
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
