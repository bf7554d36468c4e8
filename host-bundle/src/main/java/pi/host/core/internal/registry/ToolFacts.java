package pi.host.core.internal.registry;

import java.util.ArrayList;
import java.util.List;
import org.osgi.framework.ServiceReference;
import pi.host.api.PathKind;
import pi.host.api.Tool;
import pi.host.api.ToolProvider;
import pi.host.core.internal.args.ArgumentAliases;
import pi.host.spi.Builtin;
import pi.host.spi.OfferedTool;
import pi.host.spi.PreparedTool;
import pi.host.spi.ToolKind;

/**
 * The per-tool facts the pipeline works with, read once when a tool registers: its kind, argument
 * aliases, batch rules and how its calls are prepared. A builtin declares them on itself
 * ({@code @Builtin}, {@code @Tool(pathArg, pathKind)}, {@link PreparedTool}, {@link OfferedTool}); a plugin's
 * or an MCP tool's come from its origin alone (kind PLUGIN or MCP, no aliases, sequential, no declared paths,
 * always offered), whatever its service properties say.
 *
 * @param kind what the mode matrix and the policy take the tool for
 * @param aliases the accepted argument aliases
 * @param parallel calls may run in parallel in one batch
 * @param solo a call must be the only one of its batch
 * @param preparer phase one of a call
 * @param offered the builtin that says per session whether it is offered ({@link OfferedTool}), or null for
 *     a tool its mode's catalog always offers
 */
public record ToolFacts(ToolKind kind, List<ArgumentAliases.Alias> aliases, boolean parallel, boolean solo,
        Preparer preparer, OfferedTool offered) {

    public ToolFacts {
        aliases = List.copyOf(aliases);
    }

    /** Facts of a tool its mode's catalog always offers. */
    public ToolFacts(ToolKind kind, List<ArgumentAliases.Alias> aliases, boolean parallel, boolean solo,
            Preparer preparer) {
        this(kind, aliases, parallel, solo, preparer, null);
    }

    /** The facts of a tool of {@code origin}; a builtin's declaration is checked here. */
    static ToolFacts read(ToolOrigin origin, String exposedName, ToolProvider provider, ServiceReference<?> ref)
            throws Refusal {
        switch (origin) {
            case PLUGIN:
                return new ToolFacts(ToolKind.PLUGIN, List.of(), false, false, Preparer.none(exposedName));
            case MCP:
                return new ToolFacts(ToolKind.MCP, List.of(), false, false, Preparer.none(exposedName));
            default:
                return builtin(exposedName, provider, ref);
        }
    }

    private static ToolFacts builtin(String name, ToolProvider provider, ServiceReference<?> ref) throws Refusal {
        ToolKind kind;
        try {
            kind = ToolKind.valueOf(String.valueOf(ref.getProperty(Builtin.KIND)));
        } catch (IllegalArgumentException e) {
            // a builtin the policy cannot classify could be admitted where it must be denied: refuse it
            throw new Refusal("builtin '" + name + "' declares no kind (@Builtin(kind = ...), property "
                    + Builtin.KIND + ")");
        }
        if (kind.fromOrigin()) {
            throw new Refusal("builtin '" + name + "' declares kind " + kind + ", which only a plugin's or an MCP"
                    + " server's origin gives");
        }
        List<ArgumentAliases.Alias> aliases = new ArrayList<>();
        for (String declared : ToolRegistry.stringList(ref.getProperty(Builtin.ALIASES))) {
            try {
                aliases.add(ArgumentAliases.Alias.parse(declared));
            } catch (IllegalArgumentException e) {
                throw new Refusal(e.getMessage());
            }
        }
        String pathArg = ToolRegistry.stringProperty(ref, Tool.PATH_ARG);
        boolean mutates = ToolRegistry.flag(ref.getProperty(Tool.MUTATES));
        Preparer preparer;
        if (provider instanceof PreparedTool) {
            if (pathArg != null) {
                throw new Refusal("builtin '" + name + "' declares its paths twice (pathArg and prepare)");
            }
            PreparedTool prepared = (PreparedTool) provider;
            preparer = prepared::prepare;
        } else if (pathArg != null) {
            PathKind pathKind;
            try {
                pathKind = PathKind.valueOf(String.valueOf(ref.getProperty(Tool.PATH_KIND)));
            } catch (IllegalArgumentException e) {
                throw new Refusal("pi.tool.pathKind must name a PathKind when pi.tool.pathArg is set");
            }
            if (pathKind == PathKind.NONE) {
                throw new Refusal("pi.tool.pathKind must name a PathKind when pi.tool.pathArg is set");
            }
            preparer = Preparer.pathArgument(name, pathArg, pathKind, mutates);
        } else {
            preparer = Preparer.none(name);
        }
        return new ToolFacts(kind, aliases, ToolRegistry.flag(ref.getProperty(Builtin.PARALLEL)),
                ToolRegistry.flag(ref.getProperty(Builtin.SOLO)), preparer,
                provider instanceof OfferedTool ? (OfferedTool) provider : null);
    }

    /** A declaration the registry cannot accept. */
    static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;

        Refusal(String reason) {
            super(reason, null, false, false);
        }
    }
}
