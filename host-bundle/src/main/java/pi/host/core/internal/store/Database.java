package pi.host.core.internal.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The host's one SQLite file: WAL journal, ordered migrations tracked by {@code user_version}, one
 * writer connection whose transactions begin IMMEDIATE, and a few reader connections (WAL lets
 * them read while a write is in progress).
 *
 * <p>A database that could not be opened or migrated stays "broken": every read and write throws
 * {@link StorageException}, so calls fail with STORAGE_ERROR instead of running unrecorded.
 *
 * <p>The file is the one opened only while the path still names it: an open connection goes on
 * writing to a file that was deleted or replaced, so a host would answer as if its state were kept
 * and find it gone after a restart. {@link FileIdentity} compares the path with the opened file
 * before every write transaction and every {@link #CHECK_MILLIS} in the background; while they
 * differ the database is lost: every read and write and {@link #requireIntact} throws, until the
 * path names the opened file again (moved or linked back). A failed transaction drops the
 * connection's prepared statements (SQLite leaves them unusable after some failures, such as a full
 * disk), so the next one starts clean and the host recovers without a restart.
 */
public final class Database implements AutoCloseable {

    /** How long a writer waits for a lock held by another process before the call fails. */
    public static final int DEFAULT_BUSY_MILLIS = 5_000;
    private static final int READERS = 4;

    private final Path file;
    private final CompletableFuture<State> state;

    /** What opening produced: connections and version, or the failure every call reports. */
    private record State(Connection writer, BlockingQueue<Connection> readers, Connection checkpointer,
            int schemaVersion, FileIdentity identity, StorageException failure) {
    }

    /**
     * How often the background thread compares the path with the opened file and looks whether
     * there is something to checkpoint.
     */
    static final long CHECK_MILLIS = 50;
    /**
     * Commits after which the log is folded back at once; else a second after the last checkpoint at the
     * earliest, once the host is quiet ({@link #QUIET_MILLIS}), and {@link #CHECKPOINT_WAIT_MILLIS} later at
     * the latest.
     */
    private static final long CHECKPOINT_COMMITS = 1_000;
    private static final long CHECKPOINT_MAX_MILLIS = 1_000;
    /**
     * How long a due checkpoint waits at most for the host to be quiet. A checkpoint is a few ms of CPU and
     * two syncs; on 2 cores, run inside a session's first call (right after {@code session.create}'s commit)
     * it took that CPU from the call (docs/performance-log.md, round {@code grep11}). It never waits past the
     * commit bound above, so the log's size stays bounded as before; durability does not depend on it (a
     * commit is in the log, synchronously, before it returns).
     */
    static final long CHECKPOINT_WAIT_MILLIS = 4_000;
    /** Quiet: no commit for this long, and the tool calls paused (the supplier the host gives). */
    static final long QUIET_MILLIS = 200;

    /** Prepared statements per connection (each connection is used by one thread at a time). */
    private final Map<Connection, Map<String, PreparedStatement>> statements = new ConcurrentHashMap<>();
    /** Commits since the last checkpoint. */
    private final AtomicLong uncheckpointed = new AtomicLong();
    /** When the last write transaction committed (System.nanoTime). */
    private volatile long lastCommit;
    /** True while no tool call runs and none has for a pause (the host's FirstAnswer); always true for tests. */
    private final BooleanSupplier callsPaused;
    private final long waitNanos;
    /** Checkpoints run so far (tests). */
    private final AtomicLong checkpoints = new AtomicLong();
    private volatile boolean closed;

    private Database(Path file, CompletableFuture<State> state, BooleanSupplier callsPaused, long waitMillis) {
        this.file = file;
        this.state = state;
        this.callsPaused = callsPaused;
        this.waitNanos = TimeUnit.MILLISECONDS.toNanos(waitMillis);
        this.lastCommit = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS);
        Thread t = new Thread(this::checkpointLoop, "pi-db-checkpoint");
        t.setDaemon(true);
        t.start();
    }

    private void checkpointLoop() {
        long last = System.nanoTime();
        boolean waiting = false; // a due checkpoint waits for the host to be quiet, since waitingSince
        long waitingSince = 0;
        while (!closed) {
            try {
                Thread.sleep(CHECK_MILLIS); // a periodic task, not a test's synchronisation
            } catch (InterruptedException e) {
                return;
            }
            State s = state.getNow(null);
            if (s != null && s.failure() == null && !closed && s.identity().check() != null) {
                continue; // nothing to fold back into a file that is not the database any more
            }
            long pending = uncheckpointed.get();
            long now = System.nanoTime();
            boolean due = pending >= CHECKPOINT_COMMITS
                    || pending > 0 && now - last >= CHECKPOINT_MAX_MILLIS * 1_000_000;
            if (s == null || s.failure() != null || !due) {
                continue;
            }
            if (pending < CHECKPOINT_COMMITS && !quiet(now)) {
                if (!waiting) {
                    waiting = true;
                    waitingSince = now;
                }
                if (now - waitingSince < waitNanos) {
                    continue;
                }
            }
            waiting = false;
            uncheckpointed.addAndGet(-pending);
            last = now;
            if (checkpoint(s)) {
                checkpoints.incrementAndGet();
            } else {
                uncheckpointed.addAndGet(pending); // try again next round
            }
        }
    }

    /** No commit for {@link #QUIET_MILLIS} (a request is being answered) and the tool calls paused. */
    private boolean quiet(long now) {
        return now - lastCommit >= TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS) && callsPaused.getAsBoolean();
    }

    /** How many background checkpoints ran (tests). */
    long checkpoints() {
        return checkpoints.get();
    }

    /**
     * Folds the write-ahead log back into the database so that the next writer starts the log over.
     * The first pass copies most of it beside the writers; the second, between two write
     * transactions (it holds the writer), copies what they added meanwhile. Only a log copied to its
     * end is started over: under a steady stream of calls a pass beside the writers never gets there,
     * and the log grew without bound (measured: past 1 GB within minutes), every append to it
     * allocating new file blocks.
     */
    /** A checkpoint now (tests); false when it failed. */
    boolean checkpointNow() {
        return checkpoint(state());
    }

    private boolean checkpoint(State s) {
        synchronized (s.checkpointer()) {
            try (Statement st = s.checkpointer().createStatement()) {
                st.execute("PRAGMA wal_checkpoint(PASSIVE)");
                synchronized (s.writer()) {
                    st.execute("PRAGMA wal_checkpoint(PASSIVE)");
                }
                return true;
            } catch (SQLException e) {
                return false;
            }
        }
    }

    /**
     * A prepared statement of {@code connection}, kept for reuse: compiling SQL is a measurable share
     * of a small write. Valid only inside the {@link SqlWork} that received the connection; never close it.
     */
    public PreparedStatement prepared(Connection connection, String sql) throws SQLException {
        Map<String, PreparedStatement> cache = statements.computeIfAbsent(connection, c -> new HashMap<>());
        PreparedStatement ps = cache.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            cache.put(sql, ps);
        }
        return ps;
    }

    /** Opens (creating if needed) and migrates the database at {@code file}; never throws. */
    public static Database open(Path file) {
        return open(file, Migrations.ALL, DEFAULT_BUSY_MILLIS);
    }

    /** {@link #open(Path)} whose background checkpoints wait for {@code callsPaused} (tests). */
    static Database open(Path file, BooleanSupplier callsPaused, long waitMillis) {
        return new Database(file, CompletableFuture.completedFuture(connectAndMigrate(file, Migrations.ALL,
                DEFAULT_BUSY_MILLIS)), callsPaused, waitMillis);
    }

    /**
     * Starts opening the database on its own thread and returns at once; the first call waits for it.
     * Loading the native SQLite library and migrating is a large share of the host's start-up, and
     * on two cores it overlaps with the rest of the bundles starting. {@code callsPaused} says whether no
     * tool call runs and none has for a pause: the background checkpoints wait for it (bounded).
     */
    public static Database openInBackground(Path file, BooleanSupplier callsPaused) {
        CompletableFuture<State> opening = new CompletableFuture<>();
        Thread t = new Thread(() -> opening.complete(connectAndMigrate(file, Migrations.ALL, DEFAULT_BUSY_MILLIS)),
                "pi-db-open");
        t.setDaemon(true);
        t.start();
        return new Database(file, opening, callsPaused, CHECKPOINT_WAIT_MILLIS);
    }

    static Database open(Path file, List<Migrations.Migration> migrations, int busyMillis) {
        return new Database(file, CompletableFuture.completedFuture(connectAndMigrate(file, migrations, busyMillis)),
                () -> true, CHECKPOINT_WAIT_MILLIS);
    }

    private static State connectAndMigrate(Path file, List<Migrations.Migration> migrations, int busyMillis) {
        Connection writer = null;
        BlockingQueue<Connection> readers = new ArrayBlockingQueue<>(READERS);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            writer = connect(file, busyMillis);
            int version = migrate(writer, migrations);
            // a commit never runs a checkpoint itself (its cost showed as latency spikes of single calls);
            // a background thread checkpoints instead, without blocking writers (PASSIVE)
            try (Statement s = writer.createStatement()) {
                s.execute("PRAGMA wal_autocheckpoint = 0");
            }
            for (int i = 0; i < READERS; i++) {
                readers.add(connect(file, busyMillis));
            }
            Connection checkpointer = connect(file, busyMillis);
            return new State(writer, readers, checkpointer, version, FileIdentity.of(file), null);
        } catch (SQLException | IOException | RuntimeException | LinkageError e) {
            closeQuietly(writer);
            readers.forEach(Database::closeQuietly);
            System.getLogger(Database.class.getName()).log(System.Logger.Level.ERROR,
                    "cannot open the database " + file, e);
            return new State(null, null, null, -1, null,
                    new StorageException("the database " + file + " cannot be used: " + e.getMessage(), e));
        }
    }

    private static Connection connect(Path file, int busyMillis) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // NORMAL in WAL mode: a committed transaction survives a crash of the process (kill -9);
        // only a power loss may drop the last commits.
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(busyMillis);
        config.enforceForeignKeys(true);
        // nothing reads generated keys; left on, the driver runs a second statement (SELECT
        // last_insert_rowid()) after every INSERT, whatever the statement was prepared with
        config.setGetGeneratedKeys(false);
        // auto-commit on every connection: the driver would otherwise open the next transaction right
        // after each commit and hold the write lock between calls. Writers say BEGIN IMMEDIATE themselves.
        String url = "jdbc:sqlite:" + file.toAbsolutePath();
        // the driver applies the settings as the connection opens; switching a new file to WAL takes its
        // lock and answers SQLITE_BUSY at once, without the busy handler, while another connection opens
        // the same new file (the database begun at the core's start and a second activation's, or a second
        // host: DatabaseTest#twoOpenersOfANewFileAtOnceBothMigrate). The open waits for that lock as long
        // as any statement waits for one.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(busyMillis);
        while (true) {
            try {
                return config.createConnection(url);
            } catch (SQLiteException e) {
                if ((e.getResultCode().code & 0xff) != SQLiteErrorCode.SQLITE_BUSY.code
                        || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /**
     * Applies every migration newer than the file's {@code user_version}, each in its own transaction. The
     * version is read again under the transaction's write lock: another connection to the same file (the
     * database begun at the core's start and a second activation's, or a second host) may have applied the
     * migration since it was first read, and applying it twice fails ("table already exists").
     */
    private static int migrate(Connection c, List<Migrations.Migration> migrations) throws SQLException {
        int version = userVersion(c);
        for (Migrations.Migration m : migrations) {
            if (m.version() <= version) {
                continue;
            }
            try (Statement s = c.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
                int locked = userVersion(c);
                if (locked >= m.version()) {
                    s.execute("COMMIT"); // applied by another connection meanwhile
                    version = locked;
                    continue;
                }
                try {
                    for (String sql : m.statements()) {
                        s.execute(sql);
                    }
                    s.execute("PRAGMA user_version = " + m.version());
                    s.execute("COMMIT");
                } catch (SQLException e) {
                    s.execute("ROLLBACK");
                    throw new SQLException("migration to schema " + m.version() + " failed; schema " + version
                            + " stays: " + e.getMessage(), e);
                }
                version = m.version();
            }
        }
        return version;
    }

    private static int userVersion(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    private State state() {
        return state.join();
    }

    /** The schema version of the file (-1 when the database is broken). */
    public int schemaVersion() {
        return state().schemaVersion();
    }

    public Path file() {
        return file;
    }

    /** True unless the database could not be opened or migrated. */
    public boolean healthy() {
        return state().failure() == null;
    }

    /**
     * Throws while the database's file is found deleted or replaced (the last comparison's verdict:
     * no file system call, so it costs a tool call nothing). A database that could not be opened
     * reports that from every read and write instead.
     */
    public void requireIntact() throws StorageException {
        State s = state.getNow(null);
        StorageException l = s == null || s.identity() == null ? null : s.identity().lost();
        if (l != null) {
            throw l;
        }
    }

    /** Compares the path with the opened file now (tests): why the database is lost, or null. */
    StorageException verify() {
        State s = state();
        return s.failure() != null ? null : s.identity().check();
    }

    /** Runs {@code work} in one write transaction (BEGIN IMMEDIATE ... COMMIT); rolls back on failure. */
    public <T> T write(SqlWork<T> work) throws StorageException {
        State s = state();
        if (s.failure() != null) {
            throw s.failure();
        }
        StorageException gone = s.identity().check();
        if (gone != null) {
            throw gone;
        }
        Connection writer = s.writer();
        synchronized (writer) {
            try {
                prepared(writer, "BEGIN IMMEDIATE").execute();
                try {
                    T result = work.run(writer);
                    prepared(writer, "COMMIT").execute();
                    lastCommit = System.nanoTime();
                    uncheckpointed.incrementAndGet();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    try {
                        prepared(writer, "ROLLBACK").execute();
                    } catch (SQLException rollback) {
                        e.addSuppressed(rollback);
                    }
                    throw e;
                }
            } catch (SQLException | RuntimeException e) {
                forgetStatements(writer);
                throw new StorageException("storage write failed: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Closes and forgets the prepared statements of a connection whose transaction failed: after
     * some failures (a full disk) the driver leaves them closed, and reusing one failed every later
     * transaction ("statement is not executing") until the host restarted.
     */
    private void forgetStatements(Connection connection) {
        Map<String, PreparedStatement> cache = statements.remove(connection);
        if (cache == null) {
            return;
        }
        for (PreparedStatement ps : cache.values()) {
            try {
                ps.close();
            } catch (SQLException e) {
                // it is dropped either way
            }
        }
    }

    /** Runs {@code work} on a reader connection. */
    public <T> T read(SqlWork<T> work) throws StorageException {
        State s = state();
        if (s.failure() != null) {
            throw s.failure();
        }
        StorageException gone = s.identity().lost();
        if (gone != null) {
            throw gone;
        }
        BlockingQueue<Connection> readers = s.readers();
        Connection c;
        try {
            c = readers.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted while waiting for a database connection", e);
        }
        try {
            return work.run(c);
        } catch (SQLException | RuntimeException e) {
            forgetStatements(c);
            throw new StorageException("storage read failed: " + e.getMessage(), e);
        } finally {
            readers.add(c);
        }
    }

    @Override
    public void close() {
        closed = true;
        State s = state();
        if (s.failure() != null) {
            return;
        }
        synchronized (s.writer()) {
            closeQuietly(s.writer());
        }
        s.readers().forEach(Database::closeQuietly);
        synchronized (s.checkpointer()) {
            closeQuietly(s.checkpointer());
        }
        statements.clear();
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing is best effort
            }
        }
    }
}
