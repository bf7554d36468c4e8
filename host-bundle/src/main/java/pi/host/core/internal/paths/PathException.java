package pi.host.core.internal.paths;

import java.util.Map;
import java.util.Objects;
import pi.host.api.ErrorCode;

/**
 * A path argument the host will not act on. It carries the stable error code for the tool result
 * and, where the model can do better, a structured suggestion (a directory given to Read suggests
 * Glob on it, spec §4).
 */
public final class PathException extends Exception {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final transient Map<String, String> suggestion;

    public PathException(ErrorCode code, String message) {
        this(code, message, Map.of());
    }

    public PathException(ErrorCode code, String message, Map<String, String> suggestion) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
        this.suggestion = Map.copyOf(suggestion);
    }

    public ErrorCode code() {
        return code;
    }

    /** What to call instead, e.g. {@code {tool: Glob, path: src}}; empty when there is nothing to suggest. */
    public Map<String, String> suggestion() {
        return suggestion;
    }
}
