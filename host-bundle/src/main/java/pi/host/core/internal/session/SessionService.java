package pi.host.core.internal.session;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.store.SessionRecord;
import pi.host.core.internal.store.SessionStore;
import pi.host.core.internal.store.StorageException;
import pi.host.core.internal.store.StoreComponent;

/**
 * Sessions: their persisted binding (project root or temporary), operating and permission mode,
 * and the per-session folders under the data dir (scratch, visualizations, snapshots), which are
 * created lazily and removed with the session. At start-up, scratch folders of sessions that are
 * gone, or untouched for seven days, are swept.
 */
@Component(service = SessionService.class)
public final class SessionService {

    /** Scratch folders untouched this long are swept at start-up (spec §4b). */
    static final Duration SCRATCH_MAX_IDLE = Duration.ofDays(7);
    /** Per-session folders under the data dir, removed with the session. */
    static final List<String> SESSION_FOLDERS = List.of("scratch", "visualizations", "snapshots");

    private final SessionStore store;
    private final Path dataDir;
    /** {@code dataDir/scratch}, absolute: resolved once, as every tool call asks for its session's scratch dir. */
    private final Path scratchRoot;
    private final Clock clock;
    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    /**
     * Sessions read or written by this host, kept so that a tool call does not read SQLite for its
     * session (measured: a fifth of a call's overhead). Every change goes to the store first and to
     * the cache after it succeeded, so the cache never holds what the store refused.
     */
    private final java.util.concurrent.ConcurrentHashMap<String, SessionRecord> cache =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Scratch dirs known to exist. */
    private final java.util.Set<String> scratchReady = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Activate
    public SessionService(@Reference StoreComponent store) {
        this(new SessionStore(store.database()), store.dataDir(), Clock.systemUTC());
        Thread sweeper = new Thread(this::sweepScratch, "pi-scratch-sweep");
        sweeper.setDaemon(true);
        sweeper.start();
    }

    /** A service over an open store, without the start-up sweep (tests and embedding). */
    public SessionService(SessionStore store, Path dataDir, Clock clock) {
        this.store = store;
        this.dataDir = dataDir;
        this.scratchRoot = dataDir.resolve("scratch").toAbsolutePath();
        this.clock = clock;
    }

    /**
     * Adds a listener told about deletions. Listeners register themselves from their own activation:
     * a DS whiteboard here would make every listener that also uses this service wait on itself (SCR
     * refuses such cycles at start-up).
     */
    public void addListener(SessionListener l) {
        listeners.add(l);
    }

    public void removeListener(SessionListener l) {
        listeners.remove(l);
    }

    /**
     * Creates a session. {@code projectRoot} null makes a temporary session whose workspace is its
     * scratch dir; otherwise it must be an existing directory and is stored canonical.
     */
    public SessionRecord create(String projectRoot, boolean isolated, String mode, String permissionMode,
            boolean unattended) throws StorageException, IOException {
        String id = newId();
        String workspace = projectRoot == null ? scratchDir(id).toString() : Path.of(projectRoot).toRealPath().toString();
        return create(id, projectRoot == null ? null : workspace, workspace, isolated, mode, permissionMode, unattended);
    }

    /** A fresh session id (for a session whose folders are made before its record: an isolated one). */
    public static String newId() {
        return "s_" + UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * Stores a session with the given id, canonical project root (null: temporary) and workspace root (the
     * project, its scratch dir, or an isolated session's worktree).
     */
    public SessionRecord create(String id, String projectRoot, String workspace, boolean isolated, String mode,
            String permissionMode, boolean unattended) throws StorageException {
        long now = clock.millis();
        SessionRecord record = new SessionRecord(id, projectRoot, workspace, isolated, mode, permissionMode, unattended,
                now, now, null);
        synchronized (cache) {
            store.insert(record);
            cache.put(id, record);
        }
        return record;
    }

    /**
     * The session, from the cache when it holds it. Throws while the database file is found deleted
     * or replaced: the cache must not answer for a store that is gone (a call would run, and its
     * session be missing after a restart).
     */
    public Optional<SessionRecord> find(String id) throws StorageException {
        store.requireIntact();
        SessionRecord cached = cache.get(id);
        if (cached != null) {
            return Optional.of(cached);
        }
        // under the lock that writers hold: a record read here cannot be older than a change that
        // finished before it is cached (a stale mode would let a call skip Plan's hard deny)
        synchronized (cache) {
            Optional<SessionRecord> stored = store.find(id);
            stored.ifPresent(s -> cache.put(id, s));
            return stored;
        }
    }

    /** The ids of every stored session. */
    public List<String> ids() throws StorageException {
        return store.ids();
    }

    public List<SessionRecord> list() throws StorageException {
        return store.list();
    }

    public boolean configure(String id, String mode, String permissionMode) throws StorageException {
        synchronized (cache) {
            cache.remove(id);
            return store.configure(id, mode, permissionMode, clock.millis());
        }
    }

    /** A store change that writes a session's row inside a larger transaction (a plan approval). */
    @FunctionalInterface
    public interface StoredChange<T> {
        T run() throws StorageException;
    }

    /**
     * Runs a transaction that changes the session's row (mode or permission mode) together with other
     * tables, under the lock every writer holds, and drops the cached record so the next read sees
     * exactly what was committed (or, if the transaction failed, what was there before).
     */
    public <T> T changeStored(String id, StoredChange<T> change) throws StorageException {
        synchronized (cache) {
            cache.remove(id);
            return change.run();
        }
    }

    public boolean archive(String id) throws StorageException {
        synchronized (cache) {
            cache.remove(id);
            return store.archive(id, clock.millis());
        }
    }

    /** Deletes the record, tells the listeners, then removes the session's folders. */
    public boolean delete(String id) throws StorageException {
        synchronized (cache) {
            cache.remove(id);
            scratchReady.remove(id);
            if (!store.delete(id)) {
                return false;
            }
        }
        for (SessionListener l : listeners) {
            try {
                l.sessionDeleted(id);
            } catch (RuntimeException e) {
                System.getLogger(SessionService.class.getName())
                        .log(System.Logger.Level.WARNING, "session listener failed", e);
            }
        }
        for (String folder : SESSION_FOLDERS) {
            removeFolder(folder, id);
        }
        return true;
    }

    /** {@code <data_dir>/scratch/<sessionId>} (not created). */
    public Path scratchDir(String sessionId) {
        return scratchRoot.resolve(sessionId);
    }

    /** Creates the scratch dir if needed (owner-only) and returns it. */
    public Path ensureScratch(String sessionId) throws IOException {
        Path dir = scratchDir(sessionId);
        if (scratchReady.contains(sessionId)) {
            return dir;
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir);
            try {
                Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the data dir's own permissions apply
            }
        }
        scratchReady.add(sessionId);
        return dir;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Removes scratch folders whose session is gone or that were untouched for {@link #SCRATCH_MAX_IDLE}. */
    void sweepScratch() {
        List<String> known;
        try {
            known = store.ids();
        } catch (StorageException e) {
            return; // without the session list nothing can be judged orphaned: keep everything
        }
        sweepOrphans("snapshots", known); // review snapshots live as long as their session (spec §4c)
        // visualizations too, never by age: a live session's cards stay however old (spec §4b.1)
        sweepOrphans("visualizations", known);
        Path root = dataDir.resolve("scratch");
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return; // missing, or redirected by a link: nothing is swept through it
        }
        long cutoff = clock.millis() - SCRATCH_MAX_IDLE.toMillis();
        try (var dirs = Files.newDirectoryStream(root)) {
            for (Path dir : dirs) {
                String id = dir.getFileName().toString();
                if (!known.contains(id) || newestChange(dir) < cutoff) {
                    removeFolder("scratch", id);
                }
            }
        } catch (IOException e) {
            System.getLogger(SessionService.class.getName()).log(System.Logger.Level.WARNING, "scratch sweep failed", e);
        }
    }

    /** Removes the per-session folders under {@code folder} whose session no longer exists. */
    private void sweepOrphans(String folder, List<String> known) {
        Path root = dataDir.resolve(folder);
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return; // missing, or redirected by a link: nothing is swept through it
        }
        try (var dirs = Files.newDirectoryStream(root)) {
            for (Path dir : dirs) {
                if (!known.contains(dir.getFileName().toString())) {
                    removeFolder(folder, dir.getFileName().toString());
                }
            }
        } catch (IOException e) {
            System.getLogger(SessionService.class.getName()).log(System.Logger.Level.WARNING,
                    folder + " sweep failed", e);
        }
    }

    /**
     * Removes {@code <data_dir>/<folder>/<id>} without following a link: a base or session folder that is a
     * link loses only that link (the base: nothing at all is removed through it), links inside are unlinked.
     */
    private void removeFolder(String folder, String id) {
        try {
            NoFollowTree.remove(dataDir, List.of(folder, id));
        } catch (IOException e) {
            System.getLogger(SessionService.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot remove " + dataDir.resolve(folder).resolve(id), e);
        }
    }

    /** The newest modification time in a tree (links not followed). */
    static long newestChange(Path dir) throws IOException {
        long[] newest = {Files.getLastModifiedTime(dir, LinkOption.NOFOLLOW_LINKS).toMillis()};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                newest[0] = Math.max(newest[0], attrs.lastModifiedTime().toMillis());
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                newest[0] = Math.max(newest[0], attrs.lastModifiedTime().toMillis());
                return FileVisitResult.CONTINUE;
            }
        });
        return newest[0];
    }

}
