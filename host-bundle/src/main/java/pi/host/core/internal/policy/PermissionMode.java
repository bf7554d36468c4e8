package pi.host.core.internal.policy;

import java.util.Optional;

/** How high-risk calls get approved (spec §6, D115/D132). */
public enum PermissionMode {
    /** Confirm Write/Edit, Bash and non-low plugin tools. The default. */
    ASK("ask"),
    /** Auto-allow Write/Edit inside the roots; confirm the rest. */
    ACCEPT_EDITS("accept-edits"),
    /** Auto-allow everything the operating mode admits. */
    AUTO("auto");

    private final String wire;

    PermissionMode(String wire) {
        this.wire = wire;
    }

    /** The word stored in {@code sessions.permission_mode} and app settings. */
    public String wire() {
        return wire;
    }

    /** Parses one of the three words exactly; {@code inherit} is not a mode and parses to empty. */
    public static Optional<PermissionMode> parse(String value) {
        for (PermissionMode m : values()) {
            if (m.wire.equals(value)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
