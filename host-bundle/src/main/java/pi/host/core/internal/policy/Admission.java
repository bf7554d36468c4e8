package pi.host.core.internal.policy;

import java.util.Objects;
import pi.host.api.ErrorCode;

/**
 * Whether the operating mode lets a tool run at all.
 *
 * @param admitted true when the call may go on to the permission policy
 * @param code why it was refused; null exactly when admitted
 * @param rule a stable id for the audit row, e.g. {@code plan.deny.edit}
 */
public record Admission(boolean admitted, ErrorCode code, String rule) {

    public Admission {
        Objects.requireNonNull(rule, "rule");
        if (admitted != (code == null)) {
            throw new IllegalArgumentException("an admission carries a code exactly when it refuses");
        }
    }

    static Admission admit(String rule) {
        return new Admission(true, null, rule);
    }

    static Admission refuse(ErrorCode code, String rule) {
        return new Admission(false, Objects.requireNonNull(code, "code"), rule);
    }
}
