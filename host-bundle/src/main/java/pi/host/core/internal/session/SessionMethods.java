package pi.host.core.internal.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.policy.OperatingMode;
import pi.host.core.internal.policy.PermissionMode;
import pi.host.core.internal.policy.PermissionModes;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.Params;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.visualization.Visualizations;
import pi.host.core.internal.worktree.IsolatedSessions;

/** {@code session.*} and {@code settings.*} (PROTOCOL.md). */
@Component(service = SessionMethods.class)
public final class SessionMethods {

    private final SessionService sessions;
    private final SettingsService settings;
    private final IsolatedSessions isolated;
    private final Visualizations visualizations;

    @Activate
    public SessionMethods(@Reference SessionService sessions, @Reference SettingsService settings,
            @Reference IsolatedSessions isolated, @Reference Visualizations visualizations) {
        this.sessions = sessions;
        this.settings = settings;
        this.isolated = isolated;
        this.visualizations = visualizations;
    }

    /**
     * A session as clients see it; {@code worktree} only for an isolated session, {@code visualizationDir}
     * only while inline visualizations are on.
     */
    public record SessionView(String sessionId, String projectRoot, String workspaceRoot, String scratchDir,
            boolean temporary, boolean isolated, boolean unattended, String mode, String permissionMode,
            String effectivePermissionMode, long createdAt, long updatedAt, Long archivedAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> worktree,
            @JsonInclude(JsonInclude.Include.NON_NULL) String visualizationDir) {
    }

    public void register(MethodTable table) {
        table.put("settings.get", (p, c) -> guard(settings::view));
        table.put("settings.update", (p, c) -> settings.update(p.node()));
        table.put("session.create", (p, c) -> create(p));
        table.put("session.get", (p, c) -> view(require(p.requireString("sessionId"))));
        table.put("session.list", (p, c) -> list());
        table.put("session.configure", (p, c) -> configure(p));
        table.put("session.archive", (p, c) -> {
            String id = p.requireString("sessionId");
            require(id);
            guard(() -> sessions.archive(id));
            return Map.of();
        });
        table.put("session.delete", (p, c) -> {
            String id = p.requireString("sessionId");
            if (!guard(() -> sessions.delete(id))) {
                throw notFound(id);
            }
            return Map.of();
        });
    }

    private SessionView create(Params p) throws RpcException {
        String projectRoot = p.optString("projectRoot").orElse(null);
        if (projectRoot != null) {
            Path root = Path.of(projectRoot);
            if (projectRoot.indexOf('\0') >= 0 || !root.isAbsolute() || !Files.isDirectory(root)) {
                throw RpcException.invalidParams("projectRoot must be an absolute path of an existing directory");
            }
        }
        boolean isolatedSession = p.optBoolean("isolated").orElse(false);
        if (isolatedSession && projectRoot == null) {
            throw RpcException.invalidParams(ErrorCode.WORKTREE_UNAVAILABLE,
                    "an isolated session needs a projectRoot (a git project): a temporary session has none");
        }
        String mode = p.optString("mode").orElse("agent");
        if (OperatingMode.parse(mode).isEmpty()) {
            throw RpcException.invalidParams("mode must be one of agent, plan, goal");
        }
        String permissionMode = p.optString("permissionMode").orElse("inherit");
        checkPermissionMode(permissionMode);
        boolean unattended = p.optBoolean("unattended").orElse(false);
        try {
            if (isolatedSession) {
                return view(isolated.create(Path.of(projectRoot).toRealPath(), mode, permissionMode, unattended));
            }
            return view(sessions.create(projectRoot, false, mode, permissionMode, unattended));
        } catch (StorageException e) {
            throw RpcException.storage(e);
        } catch (IOException e) {
            throw RpcException.invalidParams("projectRoot cannot be used: " + e.getMessage());
        } catch (pi.host.core.internal.worktree.WorktreeException e) {
            throw RpcException.invalidParams(e.code(), e.getMessage());
        }
    }

    private SessionView configure(Params p) throws RpcException {
        String id = p.requireString("sessionId");
        SessionRecord s = require(id);
        String mode = p.optString("mode").orElse(s.mode());
        if (OperatingMode.parse(mode).isEmpty()) {
            throw RpcException.invalidParams("mode must be one of agent, plan, goal");
        }
        String permissionMode = p.optString("permissionMode").orElse(s.permissionMode());
        checkPermissionMode(permissionMode);
        guard(() -> sessions.configure(id, mode, permissionMode));
        return view(require(id));
    }

    private List<SessionView> list() throws RpcException {
        List<SessionView> out = new ArrayList<>();
        for (SessionRecord s : guard(sessions::list)) {
            out.add(view(s));
        }
        return out;
    }

    private static void checkPermissionMode(String value) throws RpcException {
        if (!"inherit".equals(value) && PermissionMode.parse(value).isEmpty()) {
            throw RpcException.invalidParams("permissionMode must be one of inherit, ask, accept-edits, auto");
        }
    }

    private SessionRecord require(String id) throws RpcException {
        return require(sessions, id);
    }

    /** The session an RPC method names, or the {@code -32602 SESSION_NOT_FOUND} every method answers. */
    public static SessionRecord require(SessionService sessions, String id) throws RpcException {
        return guard(() -> sessions.find(id)).orElseThrow(() -> notFound(id));
    }

    private static RpcException notFound(String id) {
        return RpcException.invalidParams(ErrorCode.SESSION_NOT_FOUND, "no session " + id);
    }

    SessionView view(SessionRecord s) throws RpcException {
        String global = guard(settings::defaultPermissionMode);
        String effective = PermissionModes.effective(s.permissionMode(), global).map(PermissionMode::wire)
                .orElse(null);
        return new SessionView(s.id(), s.projectRoot(), s.workspaceRoot(), sessions.scratchDir(s.id()).toString(),
                s.temporary(), s.isolated(), s.unattended(), s.mode(), s.permissionMode(), effective, s.createdAt(),
                s.updatedAt(), s.archivedAt(), s.isolated() ? isolated.describe(s) : null,
                guard(() -> visualizations.dirFor(s.id()).map(Path::toString).orElse(null)));
    }

    /** Work that touches the store. */
    @FunctionalInterface
    interface StoreWork<T> {
        T run() throws StorageException;
    }

    static <T> T guard(StoreWork<T> work) throws RpcException {
        try {
            return work.run();
        } catch (StorageException e) {
            throw RpcException.storage(e);
        }
    }
}
