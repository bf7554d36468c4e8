package pi.host.core.internal.policy;

import java.util.Optional;

/** Resolves the permission mode a tool call runs under (spec §6 "Resolution order per tool call"). */
public final class PermissionModes {

    /** The session value that defers to the global default. */
    public static final String INHERIT = "inherit";

    private PermissionModes() {
    }

    /**
     * The effective mode: the session's own value unless it is {@code inherit}, else the global
     * default, else {@link PermissionMode#ASK} when no global default is set.
     *
     * <p>A null session value counts as {@code inherit} (the column's default). A value that is
     * present but not one of the words yields empty, and the caller must deny: a corrupted setting
     * must never widen what runs without a card. The global default is only consulted, and so only
     * validated, when the session inherits.
     */
    public static Optional<PermissionMode> effective(String sessionValue, String globalDefault) {
        if (sessionValue != null && !INHERIT.equals(sessionValue)) {
            return PermissionMode.parse(sessionValue);
        }
        if (globalDefault == null) {
            return Optional.of(PermissionMode.ASK);
        }
        return PermissionMode.parse(globalDefault);
    }
}
