package pi.host.core.internal.policy;

import java.util.Objects;
import pi.host.api.Risk;
import pi.host.spi.ToolKind;

/**
 * What the permission policy needs to know about one admitted call.
 *
 * @param toolName the exposed tool name, for the card's reason (grants are keyed by it too)
 * @param kind the tool's policy kind
 * @param risk the effective risk (after the host's defaults; MCP tools are medium whatever this says)
 * @param mode the effective permission mode; null when it could not be resolved, which denies
 * @param outsidePath an explicit path argument resolved outside both the workspace and scratch roots
 * @param controlFile the call changes a repository control file inside the roots ({@code .git}, git's
 *     work-tree configuration, the project's {@code .pi/} configuration: {@link RepositoryFiles})
 * @param scratchTarget a mutating call whose resolved path is inside the scratch root
 * @param sessionGrant the session's allow-session grants cover this call's scope (its tool, and every
 *     outside or protected location it names)
 * @param visualizationTarget a mutating call whose resolved paths are all in the visualization dir (§4b.1)
 */
public record PolicyInput(String toolName, ToolKind kind, Risk risk, PermissionMode mode, boolean outsidePath,
        boolean controlFile, boolean scratchTarget, boolean sessionGrant, boolean visualizationTarget) {

    /** A call that writes nothing in the visualization dir. */
    public PolicyInput(String toolName, ToolKind kind, Risk risk, PermissionMode mode, boolean outsidePath,
            boolean controlFile, boolean scratchTarget, boolean sessionGrant) {
        this(toolName, kind, risk, mode, outsidePath, controlFile, scratchTarget, sessionGrant, false);
    }

    public PolicyInput {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(risk, "risk");
        if (outsidePath && scratchTarget) {
            // One resolved path cannot be both; a caller that says so has mixed up two paths.
            throw new IllegalArgumentException("a path is either outside the roots or inside scratch, not both");
        }
    }
}
