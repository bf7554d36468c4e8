package pi.host.core.internal.review;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a file whole: a temporary file in the same folder, fsync, rename over the target. The
 * rename replaces a hard-linked target's directory entry instead of writing through the link.
 */
final class AtomicFiles {

    static void write(Path target, byte[] bytes, String mode) throws IOException {
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

    private AtomicFiles() {
    }
}
