package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;

/**
 * The files a content-mode Grep shows, read, sniffed, digested and indexed on the {@link FilePool}
 * ahead of the thread that renders them: reading and hashing the shown files is the part of a Grep
 * that grows with its results. The reads begin while the search still runs ({@link #early}: rg prints
 * a file's lines as soon as it has searched it), so they overlap rg instead of following it; the rest
 * are read a few files ahead of the renderer, which takes them one at a time in path order
 * ({@link #inOrder}, {@link #next}). Each file is read below the pinned root with no link followed,
 * as before. The early reads are bounded ({@link #EARLY_BYTES}; the caller offers at most the files of
 * the first {@link GrepTool#MAX_MATCHES} lines), since some of them may fall past the output's budgets;
 * after the search at most {@link #AHEAD} files are read that the caller may not take. {@link #close}
 * waits for reads under way, then closes the root, so no read outlives it.
 */
final class ShownFiles implements AutoCloseable {

    /** Files read ahead of the renderer: enough to keep the pool busy, little wasted past the budgets. */
    static final int AHEAD = 8;
    /** The bytes the reads begun during the search may take in all: the memory and work they may waste. */
    static final long EARLY_BYTES = 16L << 20;

    /** One shown file: its bytes, their digest (the tag) and where its lines start. */
    record Shown(byte[] bytes, byte[] digest, LineIndex lines) {
    }

    /** Opens the pinned root the files are read below. */
    @FunctionalInterface
    interface Root {
        PinnedDir open() throws IOException;
    }

    /** An early read that found the bound taken: the file is read when its turn comes. */
    private static final Shown UNREAD = new Shown(new byte[0], new byte[0], null);

    private final Root opener;
    private final Path dir;
    private final BooleanSupplier cancelled;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong earlyBytes = new AtomicLong();
    /** The reads begun during the search, by the file's path relative to {@code dir}, not yet taken. */
    private final Map<String, Ahead> early = new HashMap<>();
    private final ArrayDeque<Ahead> ahead = new ArrayDeque<>();
    private Iterator<String> pending = Collections.emptyIterator();
    /** The reads in {@link #ahead} that {@link #fill} began (the early ones are not counted). */
    private int lateAhead;
    private PinnedDir root;
    /** The root could not be opened for an early read: none is begun, the order's open reports it. */
    private boolean noEarly;

    /** A file in order: its path below the root (null: not below it, not shown) and its read (null then). */
    private record Ahead(String below, ForkJoinTask<Shown> task, boolean late) {
    }

    /** Files named relative to {@code dir}, read below the root {@code opener} opens (at the first file). */
    ShownFiles(Root opener, Path dir, BooleanSupplier cancelled) {
        this.opener = opener;
        this.dir = dir;
        this.cancelled = cancelled;
    }

    /**
     * Begins reading a file the search has just found (at most once a path), unless the early reads
     * have taken {@link #EARLY_BYTES}; a file it does not begin is read when its turn comes.
     */
    void early(String relative) {
        if (noEarly || stop.get() || earlyBytes.get() >= EARLY_BYTES || early.containsKey(relative)) {
            return;
        }
        if (root == null) {
            try {
                root = opener.open();
            } catch (IOException e) {
                noEarly = true; // left to the order's open, which reports it as the tool's error
                return;
            }
        }
        String below = below(relative);
        if (below != null) {
            early.put(relative, new Ahead(below, FilePool.get().submit(() -> read(below, true)), false));
        }
    }

    /** The files to show, relative to {@code dir}, in the order {@link #next} takes them. */
    void inOrder(Iterable<String> relatives) throws IOException {
        if (root == null) {
            root = opener.open();
        }
        pending = relatives.iterator();
        fill();
    }

    /**
     * The next file, in order: null when it is gone, no longer the file the search saw (a link now),
     * binary, or not below the root; such a file is not shown.
     */
    Shown next() throws IOException {
        Ahead a = ahead.poll();
        if (a == null) {
            throw new IllegalStateException("no file left");
        }
        if (a.late()) {
            lateAhead--;
        }
        fill();
        if (a.task() == null) {
            return null;
        }
        Shown s;
        try {
            s = a.task().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
        return s == UNREAD ? read(a.below(), false) : s;
    }

    private void fill() {
        while (lateAhead < AHEAD && pending.hasNext()) {
            String relative = pending.next();
            Ahead begun = early.remove(relative);
            if (begun != null) {
                ahead.add(begun);
                continue;
            }
            String below = below(relative);
            if (below == null) {
                ahead.add(new Ahead(null, null, false));
                continue;
            }
            ahead.add(new Ahead(below, FilePool.get().submit(() -> read(below, false)), true));
            lateAhead++;
        }
    }

    /** {@code relative}'s path below the root, or null when it is not below it. */
    private String below(String relative) {
        try {
            return root.relative(dir.resolve(relative).normalize());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private Shown read(String below, boolean isEarly) {
        if (stop.get() || cancelled.getAsBoolean()) {
            return null;
        }
        if (isEarly && earlyBytes.get() >= EARLY_BYTES) {
            return UNREAD;
        }
        byte[] bytes;
        try (PinnedFile f = root.open(below)) {
            bytes = f.readAll(Integer.MAX_VALUE - 8);
        } catch (IOException | IllegalArgumentException ex) {
            return null;
        }
        if (isEarly) {
            earlyBytes.addAndGet(bytes.length);
        }
        LineIndex lines = LineIndex.ofText(bytes, bytes.length); // null: binary
        return lines == null ? null : new Shown(bytes, Tags.digest(bytes), lines);
    }

    /**
     * Stops the reads not yet begun (they return at once), waits for every read to end, then closes the
     * root; no task is cancelled, since a cancelled fork/join task may still be running, and the root
     * must outlive it.
     */
    @Override
    public void close() {
        stop.set(true);
        for (Ahead a : ahead) {
            join(a.task());
        }
        for (Ahead a : early.values()) {
            join(a.task());
        }
        ahead.clear();
        early.clear();
        if (root != null) {
            root.close();
        }
    }

    private static void join(ForkJoinTask<Shown> t) {
        if (t == null) {
            return;
        }
        try {
            t.join();
        } catch (RuntimeException e) {
            // its outcome no longer matters; only that it ended
        }
    }
}
