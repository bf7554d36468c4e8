package pi.host.core.internal.execute;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import pi.host.api.ErrorCode;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolResult;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.json.PlainValues;
import pi.host.core.internal.registry.RegisteredTool;

/** The result envelope of a call whose body ran (or timed out, or was aborted, or threw). */
final class Results {

    private Results() {
    }

    static ResultEnvelope envelope(CallState call, RegisteredTool tool, ToolRunner.Outcome outcome,
            List<ResolvedPath> paths, HostToolCall hostCall) {
        switch (outcome.kind()) {
            case TIMEOUT:
                return call.fail(ErrorCode.TOOL_TIMEOUT, tool.name() + " did not finish within " + tool.timeoutMs()
                        + " ms and was cancelled")
                        .withDetail("timeoutMs", JsonNodeFactory.instance.numberNode(tool.timeoutMs()));
            case ABORTED:
                return call.fail(ErrorCode.TOOL_ABORTED, "the call was aborted");
            case FAILED:
                return call.fail(ErrorCode.TOOL_FAILED, tool.name() + " failed: " + outcome.failure());
            default:
                return fromResult(call, outcome.result(), paths.isEmpty() ? null : paths.get(0), hostCall);
        }
    }

    private static ResultEnvelope fromResult(CallState call, ToolResult result, ResolvedPath path,
            HostToolCall hostCall) {
        ObjectNode details;
        try {
            JsonNode tree = PlainValues.toTree(result.details());
            details = tree instanceof ObjectNode ? (ObjectNode) tree : JsonNodeFactory.instance.objectNode();
        } catch (IllegalArgumentException e) {
            return call.fail(ErrorCode.TOOL_FAILED, "the tool returned details that are not JSON: " + e.getMessage());
        }
        // review records come from the host's ReviewSnapshots (reachable by builtins only), never from
        // the provider's result, and only a successful call carries them (spec §4c)
        ArrayNode review = JsonNodeFactory.instance.arrayNode();
        if (result.ok()) {
            hostCall.review().forEach(r -> review.add(Json.mapper().valueToTree(r)));
        }
        // bounded as a whole, like every result, when the call ends (ResultBounds)
        return new ResultEnvelope(result.errorCode(), result.text(), details, path == null ? null : path.root().wire(),
                path == null ? null : path.display(), call.traceId, result.truncated(), review, result.terminate());
    }
}
