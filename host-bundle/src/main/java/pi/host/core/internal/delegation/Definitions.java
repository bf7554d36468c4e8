package pi.host.core.internal.delegation;

import java.util.List;
import java.util.Optional;

/**
 * The subagent definitions a session has after precedence, sorted by name, and the warnings about
 * files that did not become one of them.
 */
public record Definitions(List<SubagentDefinition> all, List<LoadWarning> warnings) {

    public Definitions {
        all = List.copyOf(all);
        warnings = List.copyOf(warnings);
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    /** The definition Task names (exact name). */
    public Optional<SubagentDefinition> find(String name) {
        return all.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /** The definition a delegate's call names: exact name and the source it was loaded from. */
    public Optional<SubagentDefinition> find(String name, SubagentSource source) {
        return find(name).filter(d -> d.source() == source);
    }
}
