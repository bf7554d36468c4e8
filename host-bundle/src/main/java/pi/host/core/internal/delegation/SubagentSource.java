package pi.host.core.internal.delegation;

import java.util.Locale;
import java.util.Optional;

/** Where a subagent definition came from (spec §10.2); it decides what the definition may declare. */
public enum SubagentSource {
    /** Shipped inside the host bundle. */
    BUILTIN,
    /** The user's own folder under the data dir. */
    USER,
    /** The project's {@code .pi/agents}: arrives with the repository, so it may not declare a permission scope. */
    PROJECT;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code builtin}, {@code user} or {@code project} exactly. */
    public static Optional<SubagentSource> parse(String value) {
        for (SubagentSource s : values()) {
            if (s.wire().equals(value)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
