package pi.host.core.internal.policy;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import pi.host.core.internal.registry.ToolOrigin;

/**
 * What a tool is, as far as the mode matrix and the permission policy care. Builtins are classified
 * by name; plugin and MCP tools by origin alone, whatever they call themselves.
 */
public enum ToolKind {
    /** Read, Glob, Grep: low-risk reads inside the roots. */
    READ,
    /** BrowserPreview: read-only UI inspection, available in every mode. */
    PREVIEW,
    /** Write, Edit. */
    EDIT,
    /** Bash. */
    EXEC,
    /** new_context, ToolSearch, asktool: they touch no workspace state. */
    CONTROL,
    /** TodoWrite: the Agent session checklist, so not a control tool of Plan/Goal. */
    TODO,
    /** EnterPlanMode. */
    ENTER_PLAN,
    /** EnterGoalMode. */
    ENTER_GOAL,
    /** SubmitPlan. */
    SUBMIT_PLAN,
    /** SubmitGoal. */
    SUBMIT_GOAL,
    /** Task, TaskWait, TaskList, TaskStop: delegation (spec §10.2). */
    TASK,
    /** PluginCheck, PluginScaffold, PluginPack. */
    PLUGIN_TOOLING,
    /** JevClassify. */
    JEV,
    /** Skill. */
    SKILL,
    /** Any tool contributed by a plugin bundle. */
    PLUGIN,
    /** Any tool bridged from an MCP server. */
    MCP;

    /** Computed once: rule ids are built on every call. */
    private final String slug = name().toLowerCase(Locale.ROOT).replace('_', '-');

    private static final Map<String, ToolKind> BUILTINS = Map.ofEntries(
            Map.entry("Read", READ), Map.entry("Glob", READ), Map.entry("Grep", READ),
            Map.entry("BrowserPreview", PREVIEW),
            Map.entry("Write", EDIT), Map.entry("Edit", EDIT),
            Map.entry("Bash", EXEC),
            Map.entry("new_context", CONTROL), Map.entry("ToolSearch", CONTROL), Map.entry("asktool", CONTROL),
            Map.entry("TodoWrite", TODO),
            Map.entry("EnterPlanMode", ENTER_PLAN), Map.entry("EnterGoalMode", ENTER_GOAL),
            Map.entry("SubmitPlan", SUBMIT_PLAN), Map.entry("SubmitGoal", SUBMIT_GOAL),
            Map.entry("Task", TASK), Map.entry("TaskWait", TASK), Map.entry("TaskList", TASK),
            Map.entry("TaskStop", TASK),
            Map.entry("PluginCheck", PLUGIN_TOOLING), Map.entry("PluginScaffold", PLUGIN_TOOLING),
            Map.entry("PluginPack", PLUGIN_TOOLING),
            Map.entry("JevClassify", JEV),
            Map.entry("Skill", SKILL));

    /**
     * Classifies a registered tool. {@code builtinName} is read only for {@link ToolOrigin#BUILTIN}.
     *
     * @throws IllegalArgumentException for a builtin name this table does not know: the registry
     *     reserves every builtin name, so an unknown one is a host bug, and guessing a kind for it
     *     could admit it where it must be denied
     */
    public static ToolKind of(ToolOrigin origin, String builtinName) {
        switch (Objects.requireNonNull(origin, "origin")) {
            case PLUGIN:
                return PLUGIN;
            case MCP:
                return MCP;
            default:
                ToolKind kind = builtinName == null ? null : BUILTINS.get(builtinName);
                if (kind == null) {
                    throw new IllegalArgumentException("no policy kind for builtin tool '" + builtinName + "'");
                }
                return kind;
        }
    }

    /** The kind in rule ids: lower case with '-' ({@code submit-plan}). */
    public String slug() {
        return slug;
    }
}
