package pi.host.core.internal.policy;

import java.util.Objects;
import pi.host.api.ErrorCode;
import pi.host.spi.ToolKind;

/**
 * The operating-mode matrix (spec §10, §10.1, §11): which tool kinds a mode admits before any
 * permission card. It runs first, so no grant, permission mode or direct host call can reach a tool
 * the mode hard-denies.
 *
 * <pre>
 * kind            Agent        Plan                          Goal
 * READ            admit        admit                         admit
 * PREVIEW         admit        admit                         admit
 * EXEC            admit        admit                         admit
 * CONTROL         admit        admit                         admit
 * TODO            admit        MODE_DENIED                   MODE_DENIED
 * EDIT            admit        MODE_DENIED                   MODE_DENIED
 * ENTER_PLAN      admit        MODE_DENIED                   MODE_DENIED
 * ENTER_GOAL      admit        MODE_DENIED                   MODE_DENIED
 * SUBMIT_PLAN     MODE_DENIED  admit                         MODE_DENIED
 * SUBMIT_GOAL     MODE_DENIED  MODE_DENIED                   admit
 * TASK            admit        MODE_DENIED                   MODE_DENIED
 * PLUGIN_TOOLING  admit        MODE_DENIED                   MODE_DENIED
 * SKILL           admit        admit                         admit
 * JEV             admit        MODE_DENIED                   MODE_DENIED
 * IMAGES          admit        MODE_DENIED                   MODE_DENIED
 * MCP             admit        MODE_DENIED                   MODE_DENIED
 * PLUGIN          admit        admit if planSafeActions,     same as Plan
 *                              else PLUGIN_DISABLED_IN_PLAN
 * </pre>
 *
 * <p>Conditions that are catalog facts rather than mode facts (Task needs a subagent definition,
 * JevClassify needs the setting and a key, Skill needs a skill) are checked where those facts live,
 * not here (DelegateScope, the tools' own offer). An MCP tool never declares plan-safe actions, so the
 * contract-mode hard deny always applies to it; GenerateImages is Agent-only whatever the permission
 * mode (spec §12: denied in Plan and Goal even under auto).
 */
public final class ModeMatrix {

    private ModeMatrix() {
    }

    /**
     * Decides admission. {@code hasPlanSafeActions} is read only for {@link ToolKind#PLUGIN}: a plugin
     * tool with a non-empty list is admitted in Plan and Goal, and its runtime then rejects any
     * action outside the list.
     */
    public static Admission admit(OperatingMode mode, ToolKind kind, boolean hasPlanSafeActions) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(kind, "kind");
        return TABLE[mode.ordinal()][kind.ordinal()][hasPlanSafeActions ? 1 : 0];
    }

    /** Every cell, worked out once: the pipeline asks on every call (twice when a call waited). */
    private static final Admission[][][] TABLE = table();

    private static Admission[][][] table() {
        OperatingMode[] modes = OperatingMode.values();
        ToolKind[] kinds = ToolKind.values();
        Admission[][][] t = new Admission[modes.length][kinds.length][2];
        for (OperatingMode m : modes) {
            for (ToolKind k : kinds) {
                t[m.ordinal()][k.ordinal()][0] = decide(m, k, false);
                t[m.ordinal()][k.ordinal()][1] = decide(m, k, true);
            }
        }
        return t;
    }

    private static Admission decide(OperatingMode mode, ToolKind kind, boolean hasPlanSafeActions) {
        String prefix = mode.wire() + ".";
        if (mode == OperatingMode.AGENT) {
            if (kind == ToolKind.SUBMIT_PLAN || kind == ToolKind.SUBMIT_GOAL) {
                return Admission.refuse(ErrorCode.MODE_DENIED, prefix + "deny." + kind.slug());
            }
            return Admission.admit(prefix + "allow." + kind.slug());
        }
        ToolKind ownSubmit = mode == OperatingMode.PLAN ? ToolKind.SUBMIT_PLAN : ToolKind.SUBMIT_GOAL;
        switch (kind) {
            case READ:
            case PREVIEW:
            case EXEC:
            case CONTROL:
            case SKILL: // read-only instructions, and a /skill: invocation must work in every mode (spec §2.1)
                return Admission.admit(prefix + "allow." + kind.slug());
            case PLUGIN:
                // The _IN_PLAN code is shared by both contract modes (spec §11).
                return hasPlanSafeActions
                        ? Admission.admit(prefix + "allow.plugin-plan-safe")
                        : Admission.refuse(ErrorCode.PLUGIN_DISABLED_IN_PLAN, prefix + "deny.plugin-not-plan-safe");
            default:
                if (kind == ownSubmit) {
                    return Admission.admit(prefix + "allow." + kind.slug());
                }
                return Admission.refuse(ErrorCode.MODE_DENIED, prefix + "deny." + kind.slug());
        }
    }
}
