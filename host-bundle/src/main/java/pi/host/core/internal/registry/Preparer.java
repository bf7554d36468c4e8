package pi.host.core.internal.registry;

import java.util.List;
import java.util.Map;
import pi.host.api.PathKind;
import pi.host.spi.DeclaredPath;
import pi.host.spi.Invocation;
import pi.host.spi.PreparedTool;

/**
 * How the host gets a call's {@link Invocation} (phase one of the tool contract): a builtin's own
 * {@link PreparedTool#prepare}, or, for a builtin that declares one path argument on {@code @Tool},
 * that argument; every other tool (plugins, MCP tools, builtins without paths) touches no path the
 * host knows of. Chosen once per registration.
 */
@FunctionalInterface
public interface Preparer {

    /** The invocation of one call; {@code arguments} are validated, aliases folded. */
    Invocation prepare(Map<String, Object> arguments);

    /** A tool that declares no path: the same invocation for every call. */
    static Preparer none(String toolName) {
        Invocation constant = Invocation.of(toolName);
        return arguments -> constant;
    }

    /**
     * A builtin's one path argument from {@code @Tool(pathArg, pathKind)}: read, or written (below it,
     * for a directory) when the tool mutates. An optional directory argument left out is the workspace root.
     */
    static Preparer pathArgument(String toolName, String argument, PathKind kind, boolean mutates) {
        DeclaredPath.Access access = mutates ? DeclaredPath.Access.WRITE : DeclaredPath.Access.READ;
        boolean optional = kind == PathKind.DIRECTORY || kind == PathKind.FILE_OR_DIRECTORY;
        return arguments -> {
            Object raw = arguments.get(argument);
            if (raw == null && optional) {
                raw = ".";
            }
            if (!(raw instanceof String)) {
                return Invocation.invalid("'" + argument + "' must be a path string");
            }
            return Invocation.of(toolName + " " + raw, List.of(new DeclaredPath((String) raw, kind, access)));
        };
    }
}
