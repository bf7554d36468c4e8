package pi.host.core.internal.policy;

import java.util.Locale;
import java.util.Optional;

/** The contract mode a session is in (spec §10); it decides which tools are admitted at all. */
public enum OperatingMode {
    /** The default: every working tool, under the permission policy. */
    AGENT,
    /** Plan negotiation: read and inspect, then SubmitPlan. */
    PLAN,
    /** Goal negotiation: the mirror of Plan, ending in SubmitGoal. */
    GOAL;

    /** Computed once: every call reads it (parse, rule ids), and lower-casing allocated each time. */
    private final String wire = name().toLowerCase(Locale.ROOT);

    /** The lower-case word stored with the session and used on the wire. */
    public String wire() {
        return wire;
    }

    /**
     * Parses a stored mode. Only the exact lower-case words count: a stored value is written by the
     * host itself, so anything else is corruption and must not be guessed into a mode.
     */
    /** values() copies its array on every call. */
    private static final OperatingMode[] MODES = values();

    public static Optional<OperatingMode> parse(String value) {
        for (OperatingMode m : MODES) {
            if (m.wire.equals(value)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
