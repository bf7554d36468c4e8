package pi.host.core.internal.skills;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.session.SessionMethods;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.SessionRecord;

/** {@code skills.list}: a session's skill catalog (or, without a session, the user's), with its warnings. */
@Component(service = SkillMethods.class)
public final class SkillMethods {

    private final SkillCatalog catalog;
    private final SessionService sessions;

    @Activate
    public SkillMethods(@Reference SkillCatalog catalog, @Reference SessionService sessions) {
        this.catalog = catalog;
        this.sessions = sessions;
    }

    public void register(MethodTable table) {
        table.put("skills.list", (p, c) -> list(p));
    }

    private Map<String, Object> list(Params p) throws RpcException {
        Path project = null;
        String sessionId = p.optString("sessionId").orElse(null);
        if (sessionId != null) {
            SessionRecord session = SessionMethods.require(sessions, sessionId);
            project = session.temporary() ? null : Path.of(session.projectRoot());
        }
        SkillCatalog.Catalog skills = catalog.load(project);
        List<Map<String, Object>> warnings = new ArrayList<>();
        for (SkillWarning w : skills.warnings()) {
            warnings.add(Map.of("source", w.source().wire(), "file", w.file(), "message", w.message()));
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("skills", SkillTool.views(skills));
        result.put("warnings", warnings);
        result.put("locations", catalog.locations(project));
        result.put("skillOffered", !skills.isEmpty());
        return result;
    }
}
