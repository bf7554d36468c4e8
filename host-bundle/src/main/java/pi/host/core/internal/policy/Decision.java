package pi.host.core.internal.policy;

import java.util.Objects;

/**
 * A permission decision with what produced it, so the audit row can say why (house style: a
 * decision carries its rule and source).
 *
 * @param verdict allow, ask or deny
 * @param rule a stable id, e.g. {@code outside.ask}, {@code edit.accept-edits}, {@code grant.session}
 * @param source what produced it, e.g. {@code permission-mode:ask}, {@code session-grant},
 *     {@code scratch-root}, {@code risk:low}
 * @param reason one human line; for {@link Verdict#ASK} it is the permission card's reason
 */
public record Decision(Verdict verdict, String rule, String source, String reason) {

    public Decision {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(reason, "reason");
    }
}
