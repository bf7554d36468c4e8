package pi.host.spi;

import java.util.Map;
import org.osgi.annotation.versioning.ConsumerType;
import pi.host.api.ToolProvider;

/**
 * A builtin in two phases (the house style's tool contract): {@link #prepare} reads the validated
 * arguments and names everything the call will touch, then the host resolves, decides, asks,
 * re-checks and locks all of it, and only then calls {@link ToolProvider#execute}. A builtin with one
 * path argument may declare it with {@code @Tool(pathArg, pathKind)} instead; a tool does one or the
 * other. Honoured for the host's own bundles only: a plugin's code is not confined by what it would
 * declare, so the host does not show such a declaration to the user.
 */
@ConsumerType
public interface PreparedTool extends ToolProvider {

    /**
     * Phase one. Touches nothing (no file system, no state): it only reads the arguments.
     *
     * @param arguments validated against the tool's schema, aliases folded
     * @return what the call will touch, or {@link Invocation#invalid}
     */
    Invocation prepare(Map<String, Object> arguments);
}
