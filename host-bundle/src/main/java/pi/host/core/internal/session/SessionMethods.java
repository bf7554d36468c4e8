package pi.host.core.internal.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/** {@code session.*} and {@code settings.*} (PROTOCOL.md). */
@Component(service = SessionMethods.class)
public final class SessionMethods {

    private final SessionService sessions;
    private final SettingsService settings;

    @Activate
    public SessionMethods(@Reference SessionService sessions, @Reference SettingsService settings) {
        this.sessions = sessions;
        this.settings = settings;
    }

    /** A session as clients see it. */
    public record SessionView(String sessionId, String projectRoot, String workspaceRoot, String scratchDir,
            boolean temporary, boolean isolated, boolean unattended, String mode, String permissionMode,
            String effectivePermissionMode, long createdAt, long updatedAt, Long archivedAt) {
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
        boolean isolated = p.optBoolean("isolated").orElse(false);
        if (isolated) {
            throw RpcException.invalidParams("isolated sessions (git worktrees) are not available in this version");
        }
        String mode = p.optString("mode").orElse("agent");
        if (OperatingMode.parse(mode).isEmpty()) {
            throw RpcException.invalidParams("mode must be one of agent, plan, goal");
        }
        String permissionMode = p.optString("permissionMode").orElse("inherit");
        checkPermissionMode(permissionMode);
        boolean unattended = p.optBoolean("unattended").orElse(false);
        try {
            return view(sessions.create(projectRoot, false, mode, permissionMode, unattended));
        } catch (StorageException e) {
            throw RpcException.storage(e);
        } catch (IOException e) {
            throw RpcException.invalidParams("projectRoot cannot be used: " + e.getMessage());
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
                s.updatedAt(), s.archivedAt());
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
