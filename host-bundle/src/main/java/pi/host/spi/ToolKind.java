package pi.host.spi;

import java.util.Locale;

/**
 * What a tool is, as far as the operating-mode matrix and the permission policy care. A builtin
 * declares its kind on itself ({@link Builtin#kind()}); a plugin's or an MCP server's tool gets
 * {@link #PLUGIN} or {@link #MCP} from its origin alone, and a builtin that declares either of those
 * is refused: no tool chooses the kind that would admit it.
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
    /** Skill: reads the session's skill catalog, available in every mode. */
    SKILL,
    /** GenerateImages: authorized by the host, executed by the client (spec §12). */
    IMAGES,
    /** Any tool contributed by a plugin bundle (from its origin; never declared). */
    PLUGIN,
    /** Any tool bridged from an MCP server (from its origin; never declared). */
    MCP;

    /** Computed once: rule ids are built on every call. */
    private final String slug = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /** The kind in rule ids: lower case with '-' ({@code submit-plan}). */
    public String slug() {
        return slug;
    }

    /** True for the kinds only an origin gives ({@link #PLUGIN}, {@link #MCP}). */
    public boolean fromOrigin() {
        return this == PLUGIN || this == MCP;
    }
}
