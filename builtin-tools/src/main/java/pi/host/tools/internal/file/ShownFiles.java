package pi.host.tools.internal.file;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntFunction;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;

/**
 * The files a content-mode Grep shows, read, sniffed, digested and indexed on the {@link FilePool}
 * ahead of the thread that renders them: reading and hashing the shown files is the part of a Grep
 * that grows with its results. The reads begin while the search still runs ({@link #early}: rg prints
 * a file's lines together, as soon as it has searched it), so they overlap rg instead of following it;
 * the rest are read a few files ahead of the renderer, which takes them one at a time in path order
 * ({@link #inOrder}, {@link #next}). Each file is read below the pinned root with no link followed,
 * as before. A file whose matching lines are known keeps only its digest and the text of the lines it
 * may show, not its bytes: the early reads would otherwise hold every shown file at once (5.6 MB on
 * the benchmark's tree, a full collection of the 16 MB start heap inside the first call). The early
 * reads are bounded ({@link #EARLY_BYTES}; the caller offers at most the files of the first
 * {@link GrepTool#MAX_MATCHES} lines), since some of them may fall past the output's budgets; after
 * the search at most {@link #AHEAD} files are read that the caller may not take. {@link #close} waits
 * for reads under way, then closes the root, so no read outlives it.
 */
final class ShownFiles implements AutoCloseable {

    /** Files read ahead of the renderer: enough to keep the pool busy, little wasted past the budgets. */
    static final int AHEAD = 8;
    /** The bytes the reads begun during the search may take in all: the memory and work they may waste. */
    static final long EARLY_BYTES = 16L << 20;

    /**
     * One shown file: its digest (the tag), its number of lines and their text by line number; its bytes
     * only when it was read with no matching lines named (the in-process engine matches again on them),
     * else null, and then only the lines {@link #shown} names are there.
     */
    record Shown(byte[] bytes, byte[] digest, int count, IntFunction<String> line) {
    }

    /** Opens the pinned root the files are read below. */
    @FunctionalInterface
    interface Root {
        PinnedDir open() throws IOException;
    }

    /** An early read that found the bound taken: the file is read when its turn comes. */
    private static final Shown UNREAD = new Shown(null, new byte[0], 0, n -> null);

    private final Root opener;
    private final Path dir;
    private final int context;
    private final BooleanSupplier cancelled;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicLong earlyBytes = new AtomicLong();
    /** The reads begun during the search, by the file's path relative to {@code dir}, not yet taken. */
    private final Map<String, Ahead> early = new HashMap<>();
    private final ArrayDeque<Ahead> ahead = new ArrayDeque<>();
    private Iterator<String> pending = Collections.emptyIterator();
    private Function<String, BitSet> matching = relative -> null;
    /** The reads in {@link #ahead} that {@link #fill} began (the early ones are not counted). */
    private int lateAhead;
    private PinnedDir root;
    /** The root could not be opened for an early read: none is begun, the order's open reports it. */
    private boolean noEarly;

    /**
     * A file in order: its path below the root (null: not below it, not shown), the matching lines its
     * read was given (null: none) and its read (null when not below the root).
     */
    private record Ahead(String below, BitSet matching, ForkJoinTask<Shown> task, boolean late) {
    }

    /**
     * Files named relative to {@code dir}, read below the root {@code opener} opens (at the first file);
     * {@code context} lines are shown around each matching line.
     */
    ShownFiles(Root opener, Path dir, int context, BooleanSupplier cancelled) {
        this.opener = opener;
        this.dir = dir;
        this.context = context;
        this.cancelled = cancelled;
    }

    /** The lines shown for {@code matching} in a file of {@code count} lines: each with its context. */
    static BitSet shown(BitSet matching, int context, int count) {
        BitSet show = new BitSet();
        for (int i = matching.nextSetBit(0); i >= 0 && i <= count; i = matching.nextSetBit(i + 1)) {
            show.set(Math.max(1, i - context), Math.min(count, i + context) + 1);
        }
        return show;
    }

    /**
     * Begins reading a file the search has found with all its matching lines (at most once a path),
     * unless the early reads have taken {@link #EARLY_BYTES}; a file it does not begin is read when its
     * turn comes.
     */
    void early(String relative, BitSet matching) {
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
            BitSet lines = (BitSet) matching.clone(); // the read's own: the caller's set is the search's
            early.put(relative, new Ahead(below, lines, FilePool.get().submit(() -> read(below, lines, true)), false));
        }
    }

    /**
     * The files to show, relative to {@code dir}, in the order {@link #next} takes them, with each one's
     * matching lines ({@code matching}; null: not known, its bytes are kept).
     */
    void inOrder(Iterable<String> relatives, Function<String, BitSet> matching) throws IOException {
        if (root == null) {
            root = opener.open();
        }
        this.matching = matching;
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
        return s == UNREAD ? read(a.below(), a.matching(), false) : s;
    }

    private void fill() {
        while (lateAhead < AHEAD && pending.hasNext()) {
            String relative = pending.next();
            BitSet lines = matching.apply(relative);
            Ahead begun = early.get(relative);
            if (begun != null && begun.matching().equals(lines)) {
                early.remove(relative); // else the search found more lines after it began: read again
                ahead.add(begun);
                continue;
            }
            String below = below(relative);
            if (below == null) {
                ahead.add(new Ahead(null, null, null, false));
                continue;
            }
            ahead.add(new Ahead(below, lines, FilePool.get().submit(() -> read(below, lines, false)), true));
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

    /** The file's digest and the text of the lines shown for {@code matching} (all its bytes when null). */
    private Shown read(String below, BitSet matching, boolean isEarly) {
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
        if (lines == null) {
            return null;
        }
        byte[] digest = Tags.digest(bytes);
        if (matching == null) {
            return new Shown(bytes, digest, lines.count(), lines::line);
        }
        BitSet show = shown(matching, context, lines.count());
        Map<Integer, String> text = new HashMap<>(show.cardinality() * 2);
        for (int i = show.nextSetBit(0); i >= 0; i = show.nextSetBit(i + 1)) {
            text.put(i, lines.line(i));
        }
        return new Shown(null, digest, lines.count(), text::get);
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
