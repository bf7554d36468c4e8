package pi.host.core.internal.worktree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import pi.host.api.ErrorCode;
import pi.host.core.internal.git.GitException;
import pi.host.core.internal.git.GitLocation;
import pi.host.core.internal.git.HardenedGit;
import pi.host.core.internal.session.NoFollowTree;
import pi.host.core.internal.session.SessionListener;
import pi.host.core.internal.session.SessionService;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;
import pi.host.core.internal.store.WorktreeRecord;
import pi.host.core.internal.store.WorktreeStore;

/**
 * The worktrees the host makes (spec §4e, §10.2): an isolated session's at
 * {@code <data_dir>/worktrees/<project-key>/<sessionId>} on branch {@code pi-desktop/<sessionId>}, and a
 * write delegate's beside it ({@code <delegationId>}, branch {@code pi-desktop/<delegationId>}). It makes
 * them (every git command through {@link HardenedGit}), answers which one a call works in, refuses one
 * that is missing or was replaced by a link ({@code WORKTREE_MISSING}), and removes them with their
 * session without following a link out of them.
 */
@Component(service = WorktreeService.class)
public final class WorktreeService implements SessionListener {

    /** The branch prefix of every host-made worktree. */
    public static final String BRANCH_PREFIX = "pi-desktop/";

    private final SessionService sessions;
    private final WorktreeStore store;
    /** The data dir's real location; worktrees live in {@code worktrees/} below it. */
    private final Path dataDir;
    private final HardenedGit git;
    private final String gitProblem;
    private final Map<String, WorktreeRecord> byId = new ConcurrentHashMap<>();
    /** PI_PORT blocks handed to worktrees being made, not stored yet. */
    private final Set<Integer> reserved = new HashSet<>();

    @Activate
    public WorktreeService(@Reference StoreComponent store, @Reference SessionService sessions) throws IOException {
        this(new WorktreeStore(store.database()), sessions, System.getenv());
        sweepSoon();
    }

    public WorktreeService(WorktreeStore store, SessionService sessions, Map<String, String> hostEnv) throws IOException {
        this.store = store;
        this.sessions = sessions;
        this.dataDir = sessions.dataDir().toRealPath();
        HardenedGit g = null;
        String problem = null;
        try {
            g = new HardenedGit(hostEnv);
        } catch (GitException e) {
            problem = e.getMessage();
        }
        this.git = g;
        this.gitProblem = problem;
        try {
            store.all().forEach(w -> byId.put(w.id(), w));
        } catch (StorageException e) {
            // an unreadable store: no worktree is known, so every isolated session fails closed (WORKTREE_MISSING)
            System.getLogger(WorktreeService.class.getName()).log(System.Logger.Level.WARNING,
                    "worktrees cannot be read", e);
        }
        sessions.addListener(this);
    }

    /** Sweeps, off the activating thread, the worktrees of sessions that are gone (a crash between the two). */
    private void sweepSoon() {
        Thread sweeper = new Thread(() -> {
            try {
                sweep(new HashSet<>(sessions.ids()));
            } catch (StorageException e) {
                // without the session list nothing can be judged orphaned: keep everything
            }
        }, "pi-worktree-sweep");
        sweeper.setDaemon(true);
        sweeper.start();
    }

    @Deactivate
    private void deactivate() {
        sessions.removeListener(this);
    }

    /** The hardened git, or the reason there is none. */
    public HardenedGit git() throws WorktreeException {
        if (git == null) {
            throw new WorktreeException(ErrorCode.WORKTREE_UNAVAILABLE, "isolated sessions need git: " + gitProblem);
        }
        return git;
    }

    /**
     * Makes the worktree of a new isolated session on the project folder {@code project} (real): the
     * project's repository must be one the host may work on ({@link GitLocation#project}) and have a
     * commit; the branch starts at the project's HEAD (its uncommitted changes stay behind), and the
     * ignored files {@code .worktreeinclude} names are copied in.
     *
     * @return the record (not stored yet: {@link #store}) and what {@code .worktreeinclude} copied
     */
    public Created create(String sessionId, Path project) throws WorktreeException {
        HardenedGit g = git();
        GitLocation.Repository repo;
        try {
            repo = GitLocation.project(g, project);
        } catch (GitException e) {
            throw new WorktreeException(ErrorCode.WORKTREE_UNAVAILABLE,
                    "an isolated session needs a git project the host can work on: " + e.getMessage());
        }
        try {
            HardenedGit.Bound repository = g.bind(repo.toplevel(), null);
            String head = repository.run("rev-parse", "--verify", "-q", "HEAD^{commit}").stdout().strip();
            if (head.isEmpty()) {
                throw new WorktreeException(ErrorCode.WORKTREE_UNAVAILABLE,
                        "the project's repository has no commit yet: an isolated worktree starts from HEAD");
            }
            Path folder = folderFor(repo.toplevel());
            Path path = folder.resolve(sessionId);
            WorktreeRecord w = add(repository, repo, project, sessionId, sessionId, null, path, head, true);
            Map<String, Object> included = WorktreeInclude.copy(repository, path, folder);
            return new Created(w, included);
        } catch (GitException | IOException e) {
            throw new WorktreeException(ErrorCode.WORKTREE_UNAVAILABLE, "the worktree cannot be made: " + e.getMessage());
        }
    }

    /**
     * Makes a write delegate's worktree in the isolated session {@code sessionId} (spec §10.2): the
     * session's pending edits are checkpointed (committed on its branch), then the delegate's branch
     * {@code pi-desktop/<delegationId>} starts at that commit, in a worktree beside the session's.
     *
     * @throws WorktreeException WORKTREE_MISSING / WORKTREE_INVALID for a session worktree the host cannot
     *     use, WORKTREE_CONFLICT while it has a merge with conflicts in progress
     */
    public WorktreeRecord startDelegate(String sessionId, String delegationId) throws WorktreeException {
        WorktreeRecord s = ofSession(sessionId).orElseThrow(() -> new WorktreeException(ErrorCode.WORKTREE_MISSING,
                "the session's worktree is not known to the host"));
        requireIntact(s);
        HardenedGit g = git();
        try {
            Path path = Path.of(s.path());
            try {
                GitLocation.worktree(g, path, Path.of(s.adminDir()), Path.of(s.commonDir()));
            } catch (GitException e) {
                throw new WorktreeException(ErrorCode.WORKTREE_INVALID, e.getMessage());
            }
            HardenedGit.Bound session = g.bind(path, path.getParent());
            List<String> unmerged = session.run("diff", "--name-only", "--diff-filter=U", "-z").nulSeparated();
            if (!unmerged.isEmpty()) {
                throw new WorktreeException(ErrorCode.WORKTREE_CONFLICT, "the session's worktree has conflicts to"
                        + " resolve first: " + String.join(", ", unmerged));
            }
            MergeFlow.checkpoint(session, "pi-host: checkpoint before delegate " + delegationId);
            String head = session.ok("rev-parse", "--verify", "HEAD^{commit}").strip();
            GitLocation.Repository repo = new GitLocation.Repository(Path.of(s.repository()), null,
                    Path.of(s.commonDir()));
            Path project = s.subdir().isEmpty() ? repo.toplevel() : repo.toplevel().resolve(s.subdir());
            WorktreeRecord d = add(g.bind(repo.toplevel(), null), repo, project, delegationId, sessionId, delegationId,
                    path.getParent().resolve(delegationId), head, false);
            store(d);
            return d;
        } catch (GitException | StorageException e) {
            throw new WorktreeException(ErrorCode.WORKTREE_UNAVAILABLE, "the delegate's worktree cannot be made: "
                    + e.getMessage());
        }
    }

    /** A new worktree and what {@code .worktreeinclude} copied into it. */
    public record Created(WorktreeRecord worktree, Map<String, Object> included) {
    }

    /**
     * {@code git worktree add -b <branch> <path> <start>} in the repository, then checks that git finds the
     * new worktree's registration from it; with {@code withPort}, a free PI_PORT block.
     */
    WorktreeRecord add(HardenedGit.Bound repository, GitLocation.Repository repo, Path project, String id,
            String sessionId, String delegationId, Path path, String start, boolean withPort)
            throws GitException, WorktreeException {
        String branch = BRANCH_PREFIX + id;
        var added = repository.run("worktree", "add", "-q", "--no-track", "-b", branch, path.toString(), start);
        if (!added.ok()) {
            throw new GitException("git worktree add failed: " + added.reason());
        }
        Path real = GitLocation.real(path);
        HardenedGit.Bound inside = git.bind(real, real.getParent());
        Path admin = GitLocation.real(Path.of(inside.ok("rev-parse", "--absolute-git-dir").strip()));
        GitLocation.worktree(git, real, admin, repo.commonDir());
        String subdir = repo.toplevel().relativize(project).toString();
        Integer port = withPort ? allocatePort() : null;
        return new WorktreeRecord(id, sessionId, delegationId, repo.toplevel().toString(), subdir, real.toString(),
                branch, admin.toString(), repo.commonDir().toString(), start, port, null, System.currentTimeMillis());
    }

    /** Keeps a made worktree (its row and the cache). */
    public void store(WorktreeRecord w) throws StorageException {
        try {
            store.insert(w);
            byId.put(w.id(), w);
        } finally {
            release(w.port());
        }
    }

    /** Removes a worktree that was made but will not be kept (its session could not be stored). */
    public void discard(WorktreeRecord w) {
        remove(w);
        release(w.port());
    }

    private synchronized void release(Integer port) {
        if (port != null) {
            reserved.remove(port);
        }
    }

    public void setSetup(WorktreeRecord w, String outcome) throws StorageException {
        store.setSetup(w.id(), outcome);
        byId.put(w.id(), w.withSetup(outcome));
    }

    /** The session's own worktree. */
    public Optional<WorktreeRecord> ofSession(String sessionId) {
        return Optional.ofNullable(byId.get(sessionId)).filter(w -> w.delegationId() == null);
    }

    /** A delegate's worktree in the session, or empty when the delegation has none. */
    public Optional<WorktreeRecord> ofDelegation(String sessionId, String delegationId) {
        return Optional.ofNullable(delegationId == null ? null : byId.get(delegationId))
                .filter(w -> sessionId.equals(w.sessionId()) && delegationId.equals(w.delegationId()));
    }

    /** The worktree a call of the isolated session works in: its delegate's when it has one, else the session's. */
    public Optional<WorktreeRecord> forCall(String sessionId, String delegationId) {
        Optional<WorktreeRecord> delegate = ofDelegation(sessionId, delegationId);
        return delegate.isPresent() ? delegate : ofSession(sessionId);
    }

    /**
     * Refuses a worktree that is not there as the host made it: every folder from the data dir down to
     * the project's place in it must be a real directory (a link, or a folder that is gone, anywhere on
     * the way is {@code WORKTREE_MISSING}: the host never uses, merges or syncs it).
     */
    public void requireIntact(WorktreeRecord w) throws WorktreeException {
        NoFollowTree.Kind kind;
        try {
            kind = NoFollowTree.chain(dataDir, names(w.workspaceRoot()));
        } catch (IOException e) {
            kind = NoFollowTree.Kind.MISSING;
        }
        if (kind != NoFollowTree.Kind.DIRECTORY) {
            throw new WorktreeException(ErrorCode.WORKTREE_MISSING, "the worktree " + w.workspaceRoot() + " is "
                    + (kind == NoFollowTree.Kind.LINK ? "replaced by a link (or a folder on its way is)"
                            : kind == NoFollowTree.Kind.MISSING ? "missing" : "not a directory")
                    + "; the host never uses, merges or syncs it (deleting the session removes only what is there)");
        }
    }

    /**
     * The variables a command of the call gets: {@code PI_PROJECT_ROOT} (the project folder), {@code
     * PI_WORKTREE_ROOT} (the call's place in its worktree) and {@code PI_PORT} (the session's block).
     */
    public Map<String, String> variables(WorktreeRecord call) {
        WorktreeRecord session = ofSession(call.sessionId()).orElse(call);
        Map<String, String> out = new LinkedHashMap<>();
        if (session.port() != null) {
            out.put("PI_PORT", Integer.toString(session.port()));
        }
        Path repository = Path.of(call.repository());
        out.put("PI_PROJECT_ROOT", (call.subdir().isEmpty() ? repository : repository.resolve(call.subdir())).toString());
        out.put("PI_WORKTREE_ROOT", call.workspaceRoot().toString());
        return Map.copyOf(out);
    }

    @Override
    public void sessionDeleted(String sessionId) {
        List<WorktreeRecord> mine = new ArrayList<>();
        byId.values().stream().filter(w -> sessionId.equals(w.sessionId())).forEach(mine::add);
        mine.sort((a, b) -> Boolean.compare(a.delegationId() == null, b.delegationId() == null)); // delegates first
        for (WorktreeRecord w : mine) {
            remove(w);
        }
    }

    /**
     * Removes a worktree: its folder without following a link (a folder replaced by a link loses only
     * the link; a link on the way stops the removal there), its registration and its branch, then its row
     * (its PI_PORT block is free again). Failures are logged: the session is gone whatever happens here.
     */
    public void remove(WorktreeRecord w) {
        System.Logger log = System.getLogger(WorktreeService.class.getName());
        try {
            NoFollowTree.remove(dataDir, names(Path.of(w.path())));
        } catch (IOException | RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "cannot remove the worktree " + w.path(), e);
        }
        if (git != null && Files.isDirectory(Path.of(w.repository()))) {
            try {
                HardenedGit.Bound repository = git.bind(Path.of(w.repository()), null);
                repository.run("worktree", "remove", "--force", "--force", w.path()); // the folder is gone: the registration
                repository.run("branch", "-D", w.branch());
            } catch (GitException e) {
                log.log(System.Logger.Level.WARNING, "cannot unregister the worktree " + w.path(), e);
            }
        }
        try {
            store.delete(w.id());
        } catch (StorageException e) {
            log.log(System.Logger.Level.WARNING, "the worktree row of " + w.id() + " stays", e);
        }
        byId.remove(w.id());
    }

    /** Removes worktrees whose session no longer exists (a crash between the session's and their removal). */
    public void sweep(Set<String> liveSessions) {
        for (WorktreeRecord w : List.copyOf(byId.values())) {
            if (!liveSessions.contains(w.sessionId())) {
                remove(w);
            }
        }
    }

    /** {@code <data_dir>/worktrees/<project-key>}, made as real directories. */
    Path folderFor(Path repository) throws IOException {
        String name = repository.getFileName() == null ? "root" : repository.getFileName().toString();
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.length() > 32) {
            safe = safe.substring(0, 32);
        }
        String key = safe + "-" + sha256(repository.toString()).substring(0, 12);
        for (Path dir : List.of(dataDir.resolve("worktrees"), dataDir.resolve("worktrees").resolve(key))) {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(dir);
            }
        }
        if (NoFollowTree.chain(dataDir, List.of("worktrees", key)) != NoFollowTree.Kind.DIRECTORY) {
            throw new IOException("the worktrees folder " + dataDir.resolve("worktrees").resolve(key)
                    + " is not a real directory; no worktree is made through a link");
        }
        return dataDir.resolve("worktrees").resolve(key);
    }

    /** The names from the data dir down to {@code p}. */
    private List<String> names(Path p) {
        List<String> out = new ArrayList<>();
        dataDir.relativize(p).forEach(n -> out.add(n.toString()));
        return out;
    }

    private synchronized Integer allocatePort() {
        Set<Integer> held = new HashSet<>(reserved);
        byId.values().forEach(w -> {
            if (w.port() != null) {
                held.add(w.port());
            }
        });
        Integer port = PortBlocks.allocate(held);
        if (port != null) {
            reserved.add(port);
        }
        return port;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The data dir's real location. */
    public Path dataDir() {
        return dataDir;
    }
}
