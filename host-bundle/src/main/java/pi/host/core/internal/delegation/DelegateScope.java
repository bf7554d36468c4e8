package pi.host.core.internal.delegation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.catalog.Catalog;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.store.SessionRecord;

/**
 * The delegation rules the one pipeline and {@code tools.list} apply (spec §10.2):
 *
 * <ul>
 *   <li>Task is offered, and runs, only when the session has a subagent definition (the mode
 *       matrix already keeps it to Agent); otherwise a direct call is {@code UNKNOWN_TOOL}: the tool
 *       is not in this session's catalog;</li>
 *   <li>a call carrying {@code delegate} runs only when {@code delegate.name} and {@code source} name a
 *       definition of the session and the tool is in the set the host resolves from it; otherwise
 *       {@code TOOL_DENIED} before any card. The client's {@code delegate.tools} and
 *       {@code delegate.permission} are not trusted: the permission override is the definition's
 *       own (never a project definition's).</li>
 * </ul>
 */
@Component(service = DelegateScope.class)
public final class DelegateScope {

    public static final String TASK = "Task";

    /**
     * What the delegation rules say about one call.
     *
     * @param code the refusal, or null when the call may go on
     * @param inScope true for a delegate's call inside its tool set: the set stands in for
     *     activation, since a delegate has no ToolSearch
     * @param permission the delegate's explicit permission scope, or null for the session's mode
     */
    public record Verdict(ErrorCode code, String rule, String message, boolean inScope, PermissionMode permission) {
        /** Not a delegate's call, and not a Task call refused. */
        public static final Verdict NONE = new Verdict(null, null, null, false, null);

        public boolean refused() {
            return code != null;
        }

        static Verdict refuse(ErrorCode code, String rule, String message) {
            return new Verdict(code, rule, message, false, null);
        }
    }

    private final Subagents subagents;

    @Activate
    public DelegateScope(@Reference Subagents subagents) {
        this.subagents = subagents;
    }

    /**
     * Checks one call. {@code delegateName} null: the session's own agent. Reads the definition files
     * only for Task and for a delegate's calls.
     */
    public Verdict check(SessionRecord session, OperatingMode mode, String toolName, String delegateName,
            String delegateSource) {
        if (delegateName == null) {
            if (TASK.equals(toolName) && subagents.definitions(session).isEmpty()) {
                return Verdict.refuse(ErrorCode.UNKNOWN_TOOL, "catalog.task-no-definitions",
                        "Task is not offered in this session: it has no subagent definitions");
            }
            return Verdict.NONE;
        }
        SubagentSource source = SubagentSource.parse(delegateSource).orElse(null);
        if (source == null) {
            return Verdict.refuse(ErrorCode.TOOL_DENIED, "delegate.source",
                    "delegate.source must be builtin, user or project, not '" + delegateSource + "'; nothing ran");
        }
        SubagentDefinition definition = subagents.definitions(session).find(delegateName, source).orElse(null);
        if (definition == null) {
            return Verdict.refuse(ErrorCode.TOOL_DENIED, "delegate.unknown", "this session has no " + source.wire()
                    + " subagent definition '" + delegateName + "'; nothing ran");
        }
        Set<String> tools = subagents.tools(definition, mode);
        if (!tools.contains(toolName)) {
            return Verdict.refuse(ErrorCode.TOOL_DENIED, "delegate.scope", toolName + " is not among the tools of"
                    + " delegate '" + delegateName + "' (" + String.join(", ", tools) + "); nothing ran");
        }
        return new Verdict(null, "delegate.scope", null, true, definition.permission());
    }

    /**
     * The tool set of the definition {@code name}/{@code source} in the session's mode, or empty when
     * the session has no such definition.
     */
    public Optional<Set<String>> tools(SessionRecord session, OperatingMode mode, String name, String source) {
        return SubagentSource.parse(source).flatMap(s -> subagents.definitions(session).find(name, s))
                .map(d -> subagents.tools(d, mode));
    }

    /**
     * A session's {@code tools.list}: Task left out when the session has no definition, otherwise its
     * description extended with the subagents it can start.
     */
    public Catalog.Listing offer(SessionRecord session, Catalog.Listing listing) {
        if (listing.tools().stream().noneMatch(t -> TASK.equals(t.name()))) {
            return listing;
        }
        Definitions definitions = subagents.definitions(session);
        List<Catalog.ToolEntry> tools = new ArrayList<>();
        for (Catalog.ToolEntry t : listing.tools()) {
            if (!TASK.equals(t.name())) {
                tools.add(t);
            } else if (!definitions.isEmpty()) {
                StringBuilder d = new StringBuilder(t.description()).append("\n\nSubagents:");
                for (SubagentDefinition s : definitions.all()) {
                    d.append("\n- ").append(s.name()).append(": ").append(s.description());
                }
                tools.add(new Catalog.ToolEntry(t.name(), d.toString(), t.inputSchema(), t.risk()));
            }
        }
        return new Catalog.Listing(tools, listing.onDemand(), listing.onDemandOmitted());
    }

    /** A delegate's {@code tools.list}: only its tools, each in full (on-demand ones included). */
    public static Catalog.Listing restrict(Catalog.Listing listing, Set<String> tools) {
        List<Catalog.ToolEntry> kept = new ArrayList<>();
        for (Catalog.ToolEntry t : listing.tools()) {
            if (tools.contains(t.name())) {
                kept.add(t);
            }
        }
        return new Catalog.Listing(kept, List.of(), 0);
    }
}
