package pi.host.core.internal.delegation;

import java.util.Dictionary;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.api.Risk;
import pi.host.api.Tool;
import pi.host.api.ToolCall;
import pi.host.api.ToolProvider;
import pi.host.api.ToolResult;
import pi.host.core.internal.execute.AdmissionQueue;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.store.WorktreeRecord;
import pi.host.core.internal.worktree.WorktreeException;
import pi.host.core.internal.worktree.WorktreeService;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;

/**
 * {@code Task} (spec §10.2): the host's half of starting a delegate. The desktop runtime runs the
 * delegate's model loop; the host validates the subagent name, resolves the definition's tool set
 * and permission scope from the files, and mints the delegation id the delegate's calls carry. Its
 * result is the runtime's instruction to start the delegate, not the delegate's report. Offered
 * only in Agent (the mode matrix) and only when the session has a definition ({@link DelegateScope}).
 *
 * <p>It registers its service itself, like ToolSearch: the catalog it reads (for {@code inherit})
 * is built from the registry that lists it.
 */
@Component(service = {})
public final class TaskTool implements ToolProvider {

    /** Making a write delegate's worktree checkpoints and checks out a tree: more than a name check. */
    static final long TIMEOUT_MS = 300_000;

    private final Subagents subagents;
    private final SessionService sessions;
    private final WorktreeService worktrees;
    private final AdmissionQueue admission;
    private final ServiceRegistration<ToolProvider> registration;

    @Activate
    public TaskTool(BundleContext context, @Reference Subagents subagents, @Reference SessionService sessions,
            @Reference WorktreeService worktrees, @Reference AdmissionQueue admission) {
        this.subagents = subagents;
        this.sessions = sessions;
        this.worktrees = worktrees;
        this.admission = admission;
        Dictionary<String, Object> props = new Hashtable<>();
        props.put(Tool.NAME, DelegateScope.TASK);
        props.put(Tool.RISK, Risk.LOW.wire());
        props.put(Tool.TIMEOUT_MS, TIMEOUT_MS);
        props.put(pi.host.spi.Builtin.KIND, pi.host.spi.ToolKind.TASK.name());
        this.registration = context.registerService(ToolProvider.class, this, props);
    }

    @Deactivate
    private void deactivate() {
        registration.unregister();
    }

    @Override
    public String description() {
        return "Start a subagent on a self-contained task. It works with its own tools and instructions and"
                + " returns a report. Give it everything it needs in the prompt: it does not see this"
                + " conversation.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\":\"object\",\"properties\":{"
                + "\"subagent\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":64,"
                + "\"description\":\"The subagent's name (see the list below)\"},"
                + "\"prompt\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":200000,"
                + "\"description\":\"The task, with all the context the subagent needs\"},"
                + "\"description\":{\"type\":\"string\",\"maxLength\":200,"
                + "\"description\":\"A short title for the task\"}},"
                + "\"required\":[\"subagent\",\"prompt\"],\"additionalProperties\":false}";
    }

    @Override
    public ToolResult execute(ToolCall call) throws Exception {
        SessionRecord session = sessions.find(call.sessionId()).orElse(null);
        OperatingMode mode = session == null ? null : OperatingMode.parse(session.mode()).orElse(null);
        if (mode == null) {
            return ToolResult.error(ErrorCode.SESSION_NOT_FOUND, "the session is gone or its mode is unknown");
        }
        String name = (String) call.arguments().get("subagent");
        Definitions definitions = subagents.definitions(session);
        SubagentDefinition definition = definitions.find(name).orElse(null);
        if (definition == null) {
            return ToolResult.error(ErrorCode.INVALID_ARGUMENT, "no subagent '" + name + "'; this session has: "
                    + String.join(", ", definitions.all().stream().map(SubagentDefinition::name).toList()));
        }
        Set<String> tools = subagents.tools(definition, mode);
        // the id is the call's trace id under another prefix, so audit rows lead from one to the other
        String delegationId = "dl_" + call.traceId().substring(call.traceId().indexOf('_') + 1);
        Map<String, Object> subagent = new LinkedHashMap<>();
        subagent.put("name", definition.name());
        subagent.put("source", definition.source().wire());
        subagent.put("description", definition.description());
        subagent.put("tools", List.copyOf(tools));
        subagent.put("permission", definition.permissionWire());
        subagent.put("instructions", definition.instructions());
        subagent.put("file", definition.file());
        Object title = call.arguments().get("description");
        Map<String, Object> worktree = null;
        if (session.isolated() && (tools.contains("Write") || tools.contains("Edit"))) {
            // a write delegate of an isolated session works in a worktree of its own (spec §10.2), branched
            // after the session's pending edits are checkpointed: under the session's mutation permit, so no
            // Write of the session lands between the checkpoint and the branch
            try (AdmissionQueue.Ticket permit = admission.admit(session.id(), true, List.of())) {
                WorktreeRecord w = worktrees.startDelegate(session.id(), delegationId);
                worktree = new LinkedHashMap<>();
                worktree.put("path", w.workspaceRoot().toString());
                worktree.put("branch", w.branch());
                worktree.put("base", w.base());
            } catch (WorktreeException e) {
                return ToolResult.error(e.code(), "the delegate cannot start: " + e.getMessage());
            }
        }
        ToolResult.Builder result = ToolResult.builder()
                .text("Delegation " + delegationId + ": subagent '" + definition.name() + "' ("
                        + definition.source().wire() + ") with " + String.join(", ", tools) + ".")
                .detail("delegationId", delegationId)
                .detail("subagent", subagent)
                .detail("prompt", call.arguments().get("prompt"))
                .detail("description", title == null ? "" : title);
        if (worktree != null) {
            result.detail("worktree", worktree).text("It works in its own worktree " + worktree.get("path")
                    + " (branch " + worktree.get("branch") + "); call delegation.complete when it ends.");
        }
        return result.build();
    }
}
