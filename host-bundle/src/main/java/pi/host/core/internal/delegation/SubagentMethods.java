package pi.host.core.internal.delegation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.session.SessionMethods;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;

/** {@code subagents.list}: a session's definitions with the tools the host resolves for them, and the warnings. */
@Component(service = SubagentMethods.class)
public final class SubagentMethods {

    private final Subagents subagents;
    private final SessionService sessions;

    @Activate
    public SubagentMethods(@Reference Subagents subagents, @Reference SessionService sessions) {
        this.subagents = subagents;
        this.sessions = sessions;
    }

    public void register(MethodTable table) {
        table.put("subagents.list", (p, c) -> list(p));
    }

    private Map<String, Object> list(Params p) throws RpcException {
        SessionRecord session = SessionMethods.require(sessions, p.requireString("sessionId"));
        OperatingMode mode = OperatingMode.parse(session.mode()).orElse(null);
        Definitions definitions = subagents.definitions(session);
        List<Map<String, Object>> out = new ArrayList<>();
        for (SubagentDefinition d : definitions.all()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("name", d.name());
            view.put("source", d.source().wire());
            view.put("file", d.file());
            view.put("description", d.description());
            view.put("declaredTools", d.tools().declared());
            view.put("inherit", d.tools().inherit());
            view.put("tools", mode == null ? List.of() : List.copyOf(subagents.tools(d, mode)));
            view.put("permission", d.permissionWire());
            view.put("instructions", d.instructions());
            view.put("warnings", d.warnings());
            out.add(view);
        }
        List<Map<String, Object>> warnings = new ArrayList<>();
        for (LoadWarning w : definitions.warnings()) {
            warnings.add(Map.of("source", w.source().wire(), "file", w.file(), "message", w.message()));
        }
        Map<String, Object> locations = new LinkedHashMap<>();
        locations.put("user", subagents.userDir().toString());
        Path project = Subagents.projectDir(session);
        locations.put("project", project == null ? null : project.toString());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("subagents", out);
        result.put("warnings", warnings);
        result.put("locations", locations);
        result.put("taskOffered", mode == OperatingMode.AGENT && !definitions.isEmpty());
        return result;
    }
}
