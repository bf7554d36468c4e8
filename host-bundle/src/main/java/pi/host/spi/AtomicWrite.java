package pi.host.spi;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a file whole, below a pinned root: missing parent folders are made beneath the root (a
 * folder swapped for a link on the way is {@link PathChangedException}), then the file is written
 * in its folder's descriptor by {@link PinnedDir#write}: an unnamed temporary file, fsynced, linked
 * or renamed in. The rename replaces the target's directory entry, so a hard-linked target is
 * replaced, never written through, and a reader sees the old or the new content, never a mix; a
 * host killed mid-write leaves no temporary file. Shared by the file builtins and the host's own
 * review snapshots and rollback.
 */
public final class AtomicWrite {

    /** The mode of a file that did not exist before. */
    public static final String NEW_FILE_MODE = "rw-r--r--";

    private AtomicWrite() {
    }

    /** Creates or replaces {@code relative} below {@code root}; {@code mode} null: {@link #NEW_FILE_MODE}. */
    public static void write(PinnedDir root, String relative, byte[] bytes, String mode) throws IOException {
        put(root, relative, bytes, mode, true);
    }

    /** Creates {@code relative} below {@code root}; an existing name is never replaced (FileAlreadyExistsException). */
    public static void create(PinnedDir root, String relative, byte[] bytes, String mode) throws IOException {
        put(root, relative, bytes, mode, false);
    }

    /** Writes a file of the host's own (under the data dir), whose folder need not be canonical but must exist. */
    public static void replace(PinnedFiles files, Path target, byte[] bytes, String mode) throws IOException {
        try (PinnedDir dir = files.pin(target.toAbsolutePath().getParent().toRealPath())) {
            dir.write(target.getFileName().toString(), bytes, mode == null ? NEW_FILE_MODE : mode, true);
        }
    }

    private static void put(PinnedDir root, String relative, byte[] bytes, String mode, boolean replace)
            throws IOException {
        int slash = relative.lastIndexOf('/');
        String m = mode == null ? NEW_FILE_MODE : mode;
        if (slash < 0) {
            root.write(relative, bytes, m, replace);
            return;
        }
        try (PinnedDir parent = root.dir(relative.substring(0, slash), true)) {
            parent.write(relative.substring(slash + 1), bytes, m, replace);
        }
    }
}
