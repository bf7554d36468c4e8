package pi.host.core.internal.execute;

import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.Admission;
import pi.host.core.internal.policy.ModeMatrix;
import pi.host.core.internal.policy.OperatingMode;

/** The operating-mode matrix (spec §10): a hard deny before any card, whatever the permission mode or grants. */
final class ModeStep implements Step {

    @Override
    public ResultEnvelope apply(CallState call, Evaluation e) {
        OperatingMode mode = OperatingMode.parse(e.session.mode()).orElse(null);
        if (mode == null) {
            return call.deny(ErrorCode.MODE_DENIED, "mode.unknown", "session",
                    "the session's mode '" + e.session.mode() + "' is unknown");
        }
        Admission admitted = ModeMatrix.admit(mode, e.tool.kind(), !e.tool.planSafeActions().isEmpty());
        if (!admitted.admitted()) {
            return call.deny(admitted.code(), admitted.rule(), "mode:" + mode.wire(),
                    call.request.name() + " is not available in " + mode.wire() + " mode");
        }
        e.mode = mode;
        return null;
    }
}
