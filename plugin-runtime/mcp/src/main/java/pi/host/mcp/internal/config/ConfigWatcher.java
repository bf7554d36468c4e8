package pi.host.mcp.internal.config;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Tells when {@code mcp.json} changed while the host runs: a directory watch for quick news of the file
 * appearing, changing, being replaced (an editor's write-then-rename) or going, and a look at the file's size, time
 * and identity every {@link #POLL_MS} for what the watch does not report (a file behind
 * a link, a platform without inotify). Changes that come close together are reported once, after
 * {@link #SETTLE_MS} of quiet, so an editor's write-then-rename is one reload.
 *
 * <p>The watch asks for modify events too, although the file shares {@code <data_dir>} with the host's
 * database, whose journal is written on every call, so each call wakes the JDK's watch thread and this
 * one. Without them (a look every 0.5 s instead) the first 200 calls of a fresh host were slower on both
 * JVMs, measured and not yet explained (docs/performance-log.md, the coordinator's fourth quiet re-run), so
 * the watch stays as it was until that is understood.
 */
public final class ConfigWatcher implements AutoCloseable {

    static final long POLL_MS = 2_000;
    static final long SETTLE_MS = 150;

    private final Path file;
    private final Runnable changed;
    private final Thread thread;
    private volatile boolean closed;
    private volatile Object startStamp;
    private volatile long wakes;
    private WatchService watch;

    public ConfigWatcher(Path file, Runnable changed) {
        this.file = file;
        this.changed = changed;
        this.thread = new Thread(this::loop, "pi-mcp-config");
        thread.setDaemon(true);
    }

    public void start() {
        // before the watch and the thread: a change from here on is an event or a different stamp
        startStamp = stamp();
        try {
            Files.createDirectories(file.getParent());
            watch = FileSystems.getDefault().newWatchService();
            file.getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException e) {
            // polling alone still follows the file
            System.getLogger(ConfigWatcher.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot watch " + file.getParent() + " (polling " + file + " instead): " + e);
            watch = null;
        }
        thread.start();
    }

    private void loop() {
        Object seen = startStamp;
        while (!closed) {
            try {
                boolean event = awaitEvent();
                if (closed) {
                    return;
                }
                Object now = stamp();
                if (event || !Objects.equals(now, seen)) {
                    settle();
                    seen = stamp();
                    changed.run();
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            } catch (RuntimeException e) {
                System.getLogger(ConfigWatcher.class.getName()).log(System.Logger.Level.WARNING,
                        "reloading " + file + " failed", e);
            }
        }
    }

    /** True when the watch reported something about the file; false after a poll interval without news. */
    private boolean awaitEvent() throws InterruptedException {
        if (watch == null) {
            Thread.sleep(POLL_MS);
            return false;
        }
        WatchKey key = watch.poll(POLL_MS, TimeUnit.MILLISECONDS);
        if (key == null) {
            return false;
        }
        wakes++;
        boolean ours = key.pollEvents().stream().anyMatch(e -> e.context() == null
                || file.getFileName().equals(e.context()) || e.kind() == StandardWatchEventKinds.OVERFLOW);
        key.reset();
        return ours;
    }

    /** Waits until the file has stopped changing for {@link #SETTLE_MS}. */
    private void settle() throws InterruptedException {
        Object before;
        Object after = stamp();
        do {
            before = after;
            Thread.sleep(SETTLE_MS);
            if (watch != null) {
                WatchKey key;
                while ((key = watch.poll()) != null) {
                    key.pollEvents();
                    key.reset();
                }
            }
            after = stamp();
        } while (!Objects.equals(before, after));
    }

    /** Size, modification time and file key of the file (links followed), or a marker for "absent". */
    private Object stamp() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return java.util.List.of(a.size(), a.lastModifiedTime().toMillis(), String.valueOf(a.fileKey()));
        } catch (NoSuchFileException e) {
            return "absent";
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    /** How often the watch woke this thread before a poll interval was up (only this thread writes it). */
    long wakes() {
        return wakes;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        if (watch != null) {
            try {
                watch.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
