package pi.host.tools.internal.file;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;

/**
 * The files a content-mode Grep shows, read, sniffed, digested and indexed a few files ahead of the
 * thread that renders them, on the {@link FilePool}: reading and hashing the shown files is the part of
 * a Grep after rg that grows with its results, and the renderer needs them one at a time in path order
 * anyway. Each file is read below the pinned root with no link followed, as before; at most
 * {@link #AHEAD} files are read that the caller may not take. {@link #close} waits for reads under way,
 * so none outlives the root.
 */
final class ShownFiles implements AutoCloseable {

    /** Files read ahead of the renderer: enough to keep the pool busy, little wasted past the budgets. */
    static final int AHEAD = 8;

    /** One shown file: its bytes, their digest (the tag) and where its lines start. */
    record Shown(byte[] bytes, byte[] digest, LineIndex lines) {
    }

    private final PinnedDir root;
    private final Iterator<String> pending;
    private final BooleanSupplier cancelled;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ArrayDeque<ForkJoinTask<Shown>> ahead = new ArrayDeque<>();

    /** {@code relatives}: each file's path below {@code root} (null: none, never shown), in the order they are taken. */
    ShownFiles(PinnedDir root, List<String> relatives, BooleanSupplier cancelled) {
        this.root = root;
        this.pending = relatives.iterator();
        this.cancelled = cancelled;
        fill();
    }

    /**
     * The next file, in order: null when it is gone, no longer the file the search saw (a link now) or
     * binary; such a file is not shown.
     */
    Shown next() throws IOException {
        ForkJoinTask<Shown> task = ahead.poll();
        if (task == null) {
            throw new IllegalStateException("no file left");
        }
        fill();
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    private void fill() {
        while (ahead.size() < AHEAD && pending.hasNext()) {
            String rel = pending.next();
            ahead.add(FilePool.get().submit(() -> read(rel)));
        }
    }

    private Shown read(String relative) {
        if (relative == null || stop.get() || cancelled.getAsBoolean()) {
            return null;
        }
        byte[] bytes;
        try (PinnedFile f = root.open(relative)) {
            bytes = f.readAll(Integer.MAX_VALUE - 8);
        } catch (IOException | IllegalArgumentException ex) {
            return null;
        }
        LineIndex lines = LineIndex.ofText(bytes, bytes.length); // null: binary
        return lines == null ? null : new Shown(bytes, Tags.digest(bytes), lines);
    }

    /**
     * Stops the reads not yet begun (they return at once) and waits for every read to end; no task is
     * cancelled, since a cancelled fork/join task may still be running, and the root must outlive it.
     */
    @Override
    public void close() {
        stop.set(true);
        for (ForkJoinTask<Shown> t : ahead) {
            try {
                t.join();
            } catch (RuntimeException e) {
                // its outcome no longer matters; only that it ended
            }
        }
        ahead.clear();
    }
}
