package pi.host.core.internal.execute;

import pi.host.api.ErrorCode;
import pi.host.core.internal.registry.RegisteredTool;
import pi.host.core.internal.registry.ToolRegistry;

/** The tool registered under exactly the name the call used (spec §11: no folding of case or look-alikes). */
final class CatalogStep implements Step {

    private final ToolRegistry registry;

    CatalogStep(ToolRegistry registry) {
        this.registry = registry;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        RegisteredTool tool = registry.find(call.request.name()).orElse(null);
        if (tool == null) {
            return call.deny(ErrorCode.UNKNOWN_TOOL, "catalog.unknown", "registry",
                    "unknown tool '" + call.request.name() + "'");
        }
        e.tool = tool;
        call.definitionHash = tool.definitionHash(); // an MCP tool's: the audit row says which definition ran
        return null;
    }
}
