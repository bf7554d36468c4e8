package pi.host.core.internal.registry;

import java.util.List;
import pi.host.api.Risk;
import pi.host.api.ToolProvider;
import pi.host.spi.ToolKind;

/**
 * A tool as the host knows it: the name the model sees, the internal name, where it came from, the
 * effective risk and the provider to call.
 *
 * @param name the exposed name (exact match only)
 * @param internalName {@code plugin.<id>.<tool>}, {@code mcp.<server>.<tool>}, or the builtin name
 * @param localName the provider's own name for the tool
 * @param owner the plugin id or MCP server id; null for builtins
 * @param risk the effective risk after the host's defaults
 * @param declaredRiskValid false when the provider declared no valid risk (so medium was applied)
 * @param actions the declared actions
 * @param planSafeActions the actions allowed in Plan and Goal
 * @param deferred true when listed on demand only
 * @param summary one line for the on-demand catalog
 * @param facts the per-tool facts the pipeline works with (kind, aliases, batch rules, preparation)
 * @param mutates true when calls are serialized per session and lock their path exclusively
 * @param timeoutMs the budget of one call
 * @param bundleId the providing bundle
 * @param serviceId the service registration, to tell re-registrations apart
 * @param definitionHash an MCP tool's definition hash (rug-pull guard); null for other origins
 * @param annotations an MCP tool's declared annotations as JSON (shown, never trusted); null when none
 */
public record RegisteredTool(String name, String internalName, String localName, ToolOrigin origin, String owner,
        Risk risk, boolean declaredRiskValid, List<String> actions, List<String> planSafeActions, boolean deferred,
        String summary, ToolFacts facts, boolean mutates, long timeoutMs, ToolProvider provider,
        long bundleId, long serviceId, String definitionHash, String annotations) {

    /** What the mode matrix and the policy take the tool for. */
    public ToolKind kind() {
        return facts.kind();
    }
}
