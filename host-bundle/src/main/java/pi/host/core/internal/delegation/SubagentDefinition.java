package pi.host.core.internal.delegation;

import java.util.List;
import pi.host.core.internal.policy.PermissionMode;

/**
 * One subagent definition as loaded (spec §10.2).
 *
 * @param name the name Task and {@code delegate.name} use (unique per session, case-insensitively)
 * @param source where it came from
 * @param description what it is for (shown to the model in Task's description)
 * @param instructions the Markdown body: the delegate's own instructions
 * @param tools its {@code tools:} declaration after the rules
 * @param permission its explicit permission scope, or null for inherit (always null for a project definition)
 * @param file where it was read from (a project-relative path for project definitions)
 * @param warnings what was dropped while parsing it
 */
public record SubagentDefinition(String name, SubagentSource source, String description, String instructions,
        DeclaredTools tools, PermissionMode permission, String file, List<String> warnings) {

    public SubagentDefinition {
        warnings = List.copyOf(warnings);
    }

    /** The scope word clients see: the explicit mode, or {@code inherit}. */
    public String permissionWire() {
        return permission == null ? "inherit" : permission.wire();
    }
}
