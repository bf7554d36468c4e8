package pi.host.core.internal.execute;

import pi.host.api.ErrorCode;
import pi.host.spi.Invocation;

/**
 * Phase one of the tool contract: the tool names every path the call will touch and says in one line
 * what it will do, before policy (STYLE.md, "The tool contract"). Plugins and MCP tools declare nothing:
 * the host shows and confines no path of theirs.
 */
final class PrepareStep implements Step {

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        Invocation invocation;
        try {
            invocation = e.tool.facts().preparer().prepare(call.plainArguments);
        } catch (RuntimeException ex) {
            return call.fail(ErrorCode.TOOL_FAILED, call.request.name() + " could not prepare the call: " + ex);
        }
        if (invocation == null) {
            return call.fail(ErrorCode.TOOL_FAILED, call.request.name() + " prepared no invocation");
        }
        if (invocation.problem() != null) {
            return call.fail(ErrorCode.INVALID_ARGUMENT, invocation.problem());
        }
        call.invocation = invocation;
        return null;
    }
}
