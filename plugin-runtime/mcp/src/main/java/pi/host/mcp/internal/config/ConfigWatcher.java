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
 * the watch stays as it was until that is understood. A wake for another file's event does not look at
 * this file before the next poll is due: before, each one read the file's attributes, and with no
 * {@code mcp.json} built a {@code NoSuchFileException}, per database write (round {@code warm15}).
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
    private volatile long looks;
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
        long lastLook = System.nanoTime();
        while (!closed) {
            try {
                Wake wake = awaitEvent();
                if (closed) {
                    return;
                }
                if (wake == Wake.OTHER && System.nanoTime() - lastLook < TimeUnit.MILLISECONDS.toNanos(POLL_MS)) {
                    continue; // a neighbour's event (the database's journal): the poll looks at this file in time
                }
                Object now = stamp();
                lastLook = System.nanoTime();
                boolean event = wake == Wake.OURS;
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

    /** What ended a wait for the watch. */
    private enum Wake {
        /** The watch reported something about the file (or lost events). */
        OURS,
        /** The watch reported other files of the folder only. */
        OTHER,
        /** A poll interval passed without news. */
        POLL
    }

    private Wake awaitEvent() throws InterruptedException {
        if (watch == null) {
            Thread.sleep(POLL_MS);
            return Wake.POLL;
        }
        WatchKey key = watch.poll(POLL_MS, TimeUnit.MILLISECONDS);
        if (key == null) {
            return Wake.POLL;
        }
        wakes++;
        boolean ours = key.pollEvents().stream().anyMatch(e -> e.context() == null
                || file.getFileName().equals(e.context()) || e.kind() == StandardWatchEventKinds.OVERFLOW);
        key.reset();
        return ours ? Wake.OURS : Wake.OTHER;
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
        looks++; // written by the watcher's thread only, once started
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

    /** How often the file's attributes were read. */
    long looks() {
        return looks;
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
