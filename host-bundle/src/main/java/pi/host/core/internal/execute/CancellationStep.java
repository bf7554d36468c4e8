package pi.host.core.internal.execute;

import java.util.Optional;
import pi.host.api.ErrorCode;

/**
 * Registers the call's cancellation (spec §3) before anything can wait on it, so an abort reaches a
 * pending card or a queued admission; the record goes when the call ends, however it ends.
 */
final class CancellationStep implements Step {

    private final CancellationRegistry cancellations;

    CancellationStep(CancellationRegistry cancellations) {
        this.cancellations = cancellations;
    }

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        ExecuteRequest req = call.request;
        Optional<CallCancellation> registered = cancellations.register(req.sessionId(), req.toolCallId(), req.name());
        if (registered.isEmpty()) {
            return call.fail(ErrorCode.INVALID_ARGUMENT, "toolCallId " + req.toolCallId() + " is already in flight");
        }
        CallCancellation cancel = registered.get();
        call.cancel = cancel;
        call.ending = call.ending.after(() -> cancellations.unregister(req.sessionId(), req.toolCallId(), cancel));
        return cancel.isCancelled() ? call.fail(ErrorCode.TOOL_ABORTED, "the call was aborted before it started") : null;
    }
}
