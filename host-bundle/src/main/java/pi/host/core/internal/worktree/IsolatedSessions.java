package pi.host.core.internal.worktree;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.json.Json;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.session.SettingsService;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.WorktreeRecord;

/**
 * {@code session.create} with {@code isolated: true} (spec §4e): the worktree first (its id is the
 * session's), then the session whose workspace root is the project's place in that worktree, then the
 * project's setup command in it. A session that cannot be stored takes its worktree with it.
 */
@Component(service = IsolatedSessions.class)
public final class IsolatedSessions {

    private final SessionService sessions;
    private final SettingsService settings;
    private final WorktreeService worktrees;
    private final WorktreeSetup setup;

    @Activate
    public IsolatedSessions(@Reference SessionService sessions, @Reference SettingsService settings,
            @Reference WorktreeService worktrees, @Reference WorktreeSetup setup) {
        this.sessions = sessions;
        this.settings = settings;
        this.worktrees = worktrees;
        this.setup = setup;
    }

    /** Creates an isolated session on the project folder {@code project} (real). */
    public SessionRecord create(Path project, String mode, String permissionMode, boolean unattended)
            throws WorktreeException, StorageException {
        String id = SessionService.newId();
        WorktreeService.Created made = worktrees.create(id, project);
        WorktreeRecord w = made.worktree();
        SessionRecord session;
        try {
            worktrees.store(w);
            session = sessions.create(id, project.toString(), w.workspaceRoot().toString(), true, mode,
                    permissionMode, unattended);
        } catch (StorageException | RuntimeException e) {
            worktrees.discard(w);
            throw e;
        }
        included.put(id, made.included());
        String command = settings.setupCommand(project.toString());
        if (command != null) {
            worktrees.setSetup(w, setup.run(w, worktrees.variables(w), command, settings.setupTimeout()));
        }
        return session;
    }

    /** What .worktreeinclude copied into each session's worktree when it was made (this host's run). */
    private final Map<String, Map<String, Object>> included = new java.util.concurrent.ConcurrentHashMap<>();

    /** The session record's {@code worktree}: where, which branch, the port, the setup's outcome. */
    public Map<String, Object> describe(SessionRecord s) {
        Map<String, Object> out = new LinkedHashMap<>();
        WorktreeRecord w = worktrees.ofSession(s.id()).orElse(null);
        if (w == null) {
            out.put("state", "missing");
            return out;
        }
        String state;
        try {
            worktrees.requireIntact(w);
            state = "ready";
        } catch (WorktreeException e) {
            state = "missing";
        }
        out.put("state", state);
        out.put("path", w.path());
        out.put("branch", w.branch());
        out.put("repository", w.repository());
        out.put("base", w.base());
        out.put("port", w.port());
        if (included.containsKey(s.id())) {
            out.put("included", included.get(s.id()));
        }
        if (w.setup() != null) {
            try {
                out.put("setup", Json.mapper().readTree(w.setup()));
            } catch (java.io.IOException e) {
                out.put("setup", null);
            }
        }
        return out;
    }
}
