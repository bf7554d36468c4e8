package pi.host.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a file whole: a temporary file in the same folder, fsync, rename over the target. The
 * rename replaces the target's directory entry, so a hard-linked target is replaced, never written
 * through, and a reader sees the old or the new content, never a mix. Shared by the file builtins
 * and the host's own review snapshots and rollback.
 */
public final class AtomicWrite {

    private AtomicWrite() {
    }

    /** The POSIX mode of an existing file ({@code rw-r--r--}), or null. */
    public static String mode(Path file) throws IOException {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS));
        } catch (UnsupportedOperationException e) {
            return null;
        }
    }

    /**
     * Creates the missing parents of {@code target} (the host resolved it inside a root) and checks
     * that the parent really is where the host resolved it, so a link planted since cannot redirect
     * the write.
     */
    public static void parents(Path target) throws IOException {
        Path parent = target.getParent();
        Files.createDirectories(parent);
        if (!parent.toRealPath().equals(parent)) {
            throw new IOException("the folder " + parent + " changed into a link; nothing was written");
        }
    }

    /**
     * Writes a target the host resolved canonical: refuses when its folder has been swapped for a
     * link since, so the write cannot be redirected.
     */
    public static void write(Path target, byte[] bytes, String mode) throws IOException {
        if (!target.getParent().toRealPath().equals(target.getParent())) {
            // the host resolved the target canonical; a folder swapped for a link since must not redirect it
            throw new IOException("the folder " + target.getParent() + " changed into a link; nothing was written");
        }
        replace(target, bytes, mode);
    }

    /** Writes a file of the host's own (under the data dir), whose path need not be canonical. */
    public static void replace(Path target, byte[] bytes, String mode) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".pi-tmp");
        try {
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString(mode == null ? "rw-r--r--" : mode));
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
