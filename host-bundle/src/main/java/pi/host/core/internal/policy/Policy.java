package pi.host.core.internal.policy;

import pi.host.api.Risk;
import pi.host.spi.ToolKind;

/**
 * The permission policy (spec §4a, §4b, §6): turns an admitted call into allow, ask or deny.
 *
 * <p>The order matters and follows the spec. An explicit outside path is a capability of its own,
 * checked before the low-risk auto-allow, so a read outside the roots is confirmed like an edit.
 * Then the tool's kind decides:
 *
 * <pre>
 * kind                        ask            accept-edits   auto
 * outside path (any kind)     ASK / grant    ASK / grant    ALLOW
 * control file changed        ASK / grant    ASK / grant    ALLOW
 * READ, PREVIEW, CONTROL,
 *   TODO, ENTER_*, SUBMIT_*   ALLOW          ALLOW          ALLOW
 * EDIT in scratch             ALLOW          ALLOW          ALLOW
 * EDIT in visualization dir   ALLOW          ALLOW          ALLOW
 * EDIT                        ASK / grant    ALLOW          ALLOW
 * EXEC                        ASK / grant    ASK / grant    ALLOW
 * MCP (always medium)         ASK / grant    ASK / grant    ALLOW
 * PLUGIN, TASK, SKILL, JEV,
 *   IMAGES, PLUGIN_TOOLING:
 *   low risk                  ALLOW          ALLOW          ALLOW
 *   medium or high risk       ASK / grant    ASK / grant    ALLOW
 * </pre>
 *
 * "ASK / grant" means ALLOW when the session's allow-session grants cover the call's scope (the tool,
 * and every outside or protected location it names: an in-root grant covers neither), else ASK. A
 * change to a repository control file (issue 13.3, beyond the spec) is confirmed like an outside path,
 * before the scratch and accept-edits auto-allows. The operating-mode matrix ({@link ModeMatrix}) runs before this class, so nothing here can
 * re-enable a tool the mode denies. An unresolved permission mode denies: fail closed.
 */
public final class Policy {

    /** The card reason for every MCP tool; the spec fixes the wording (§6). */
    public static final String MCP_REASON = "MCP server tool requires approval";
    /** The card reason when the server changed an MCP tool's definition since the user allowed it for the session. */
    public static final String MCP_DEFINITION_CHANGED_REASON = MCP_REASON
            + ": its definition (description, input schema or annotations) changed since it was allowed for this session";

    private Policy() {
    }

    public static Decision decide(PolicyInput in) {
        PermissionMode mode = in.mode();
        if (mode == null) {
            return new Decision(Verdict.DENY, "mode.unresolved", "permission-mode:invalid",
                    "The session's permission mode could not be resolved");
        }
        if (in.outsidePath()) {
            return outside(in, mode);
        }
        if (in.controlFile()) {
            return controlFile(in, mode);
        }
        switch (in.kind()) {
            case READ:
            case PREVIEW:
            case CONTROL:
            case TODO:
            case ENTER_PLAN:
            case ENTER_GOAL:
            case SUBMIT_PLAN:
            case SUBMIT_GOAL:
                // Builtins fixed at low risk; they act only inside the roots or on host state.
                return allow("low-risk.allow", "risk:low", in.toolName() + " is low risk inside the session roots");
            case EDIT:
                return edit(in, mode);
            case EXEC:
                return confirmUnlessAuto(in, mode, "exec", in.toolName() + " requires approval");
            case MCP:
                // A risk self-declared by an MCP server is not trusted: always medium.
                return confirmUnlessAuto(in, mode, "mcp", MCP_REASON);
            default:
                // Plugin tools and the remaining builtins follow their (effective) declared risk.
                String area = in.kind().slug();
                if (in.risk() == Risk.LOW) {
                    return allow(area + ".low-risk", "risk:low", in.toolName() + " is low risk");
                }
                return confirmUnlessAuto(in, mode, area, in.toolName() + " requires approval");
        }
    }

    private static Decision outside(PolicyInput in, PermissionMode mode) {
        if (mode == PermissionMode.AUTO) {
            return allow("outside.auto", "permission-mode:auto",
                    "Access outside the workspace allowed by auto: " + in.toolName());
        }
        if (in.sessionGrant()) {
            // allow-session follows the per-tool scope, outside paths included (spec §4a).
            return allow("outside.grant.session", "session-grant",
                    "Access outside the workspace allowed for this session: " + in.toolName());
        }
        return ask("outside." + mode.wire(), mode, "Access outside the workspace: " + in.toolName());
    }

    private static Decision controlFile(PolicyInput in, PermissionMode mode) {
        if (mode == PermissionMode.AUTO) {
            return allow("control.auto", "permission-mode:auto",
                    in.toolName() + " changes a repository control file, allowed by auto");
        }
        if (in.sessionGrant()) {
            return allow("control.grant.session", "session-grant",
                    in.toolName() + " changes a repository control file this session allowed");
        }
        return ask("control." + mode.wire(), mode, in.toolName()
                + " changes a repository control file (.git, .gitattributes, .gitmodules or .pi configuration)");
    }

    private static Decision edit(PolicyInput in, PermissionMode mode) {
        if (in.visualizationTarget()) {
            // a single *.html fragment of the session's own dir, as prompt-free as scratch (spec §4b.1)
            return allow("edit.visualization", "visualization-root", in.toolName()
                    + " writes inside the visualization root");
        }
        if (in.scratchTarget()) {
            // Scratch cannot touch the project, so its writes are prompt-free in every mode (D114).
            return allow("edit.scratch", "scratch-root", in.toolName() + " writes inside the scratch root");
        }
        if (mode != PermissionMode.ASK) {
            return allow("edit." + mode.wire(), "permission-mode:" + mode.wire(),
                    in.toolName() + " allowed by " + mode.wire());
        }
        return grantOrAsk(in, mode, "edit", in.toolName() + " requires approval");
    }

    private static Decision confirmUnlessAuto(PolicyInput in, PermissionMode mode, String area, String reason) {
        if (mode == PermissionMode.AUTO) {
            return allow(area + ".auto", "permission-mode:auto", in.toolName() + " allowed by auto");
        }
        return grantOrAsk(in, mode, area, reason);
    }

    private static Decision grantOrAsk(PolicyInput in, PermissionMode mode, String area, String reason) {
        if (in.sessionGrant()) {
            return allow("grant.session", "session-grant", in.toolName() + " allowed for this session");
        }
        return ask(area + "." + mode.wire(), mode, reason);
    }

    private static Decision allow(String rule, String source, String reason) {
        return new Decision(Verdict.ALLOW, rule, source, reason);
    }

    private static Decision ask(String rule, PermissionMode mode, String reason) {
        return new Decision(Verdict.ASK, rule, "permission-mode:" + mode.wire(), reason);
    }
}
