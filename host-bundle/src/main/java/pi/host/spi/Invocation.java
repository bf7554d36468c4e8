package pi.host.spi;

import java.util.List;
import java.util.Objects;

/**
 * The first phase of a call (the house style's tool contract): what one call will do, named before
 * the host decides on it. It describes itself in one line (for the permission card and the audit row)
 * and names every path it will touch; nothing has been touched yet. A call the arguments cannot make
 * is a refusal with a message, never an exception.
 */
public final class Invocation {

    private final String description;
    private final List<DeclaredPath> paths;
    private final String problem;

    private Invocation(String description, List<DeclaredPath> paths, String problem) {
        this.description = description;
        this.paths = paths;
        this.problem = problem;
    }

    /** A call that touches {@code paths} (in the order the tool will get them back). */
    public static Invocation of(String description, List<DeclaredPath> paths) {
        return new Invocation(Objects.requireNonNull(description, "description"), List.copyOf(paths), null);
    }

    /** A call that touches no path. */
    public static Invocation of(String description) {
        return new Invocation(Objects.requireNonNull(description, "description"), List.of(), null);
    }

    /** Arguments that cannot make a call: the host answers INVALID_ARGUMENT with {@code problem}. */
    public static Invocation invalid(String problem) {
        return new Invocation(null, List.of(), Objects.requireNonNull(problem, "problem"));
    }

    /** One line saying what the call will do; null for an invalid one. */
    public String description() {
        return description;
    }

    public List<DeclaredPath> paths() {
        return paths;
    }

    /** Why the arguments cannot make a call, or null. */
    public String problem() {
        return problem;
    }
}
