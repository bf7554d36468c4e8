package pi.host.api;

import java.util.Locale;
import java.util.Optional;

/** How much harm a tool call can do; the permission policy starts from it (spec §6). */
public enum Risk {
    /** Reads inside the session roots: auto-allowed in every permission mode. */
    LOW,
    /** Network or metadata access: confirmed or allowed by policy. Untrusted declarations land here. */
    MEDIUM,
    /** Mutations and command execution: confirmed by default. */
    HIGH;

    /** The lower-case word used on the wire and in service properties. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a declared risk; anything that is not exactly one of the three words is empty. */
    public static Optional<Risk> parse(Object declared) {
        if (!(declared instanceof String)) {
            return Optional.empty();
        }
        for (Risk r : values()) {
            if (r.name().equalsIgnoreCase((String) declared)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
