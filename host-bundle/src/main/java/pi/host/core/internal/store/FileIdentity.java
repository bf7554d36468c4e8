package pi.host.core.internal.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Whether a path still names the file that was opened there (device and inode on Linux and macOS:
 * the file system's file key). An open connection goes on writing to a file that was deleted or
 * replaced; {@link #check} finds that, and the file is "lost" from then until the path names it
 * again (moved or linked back). Where the file system has no file key every check passes.
 */
final class FileIdentity {

    private static final System.Logger LOG = System.getLogger(FileIdentity.class.getName());

    private final Path file;
    private final Object key;
    /** Why the file counts as lost, or null while the path names it. */
    private volatile StorageException lost;

    private FileIdentity(Path file, Object key) {
        this.file = file;
        this.key = key;
    }

    /** The identity of the file {@code file} names now. */
    static FileIdentity of(Path file) throws IOException {
        return new FileIdentity(file, attributes(file).fileKey());
    }

    /** The last check's verdict, without a file system call: why the file is lost, or null. */
    StorageException lost() {
        return lost;
    }

    /** Looks at the path now; returns why the file is lost, or null (then it is intact again). */
    StorageException check() {
        String change = change();
        StorageException l = lost;
        if (change == null) {
            if (l != null) {
                lost = null;
                LOG.log(System.Logger.Level.INFO, "the database file " + file + " is back; storage is usable again");
            }
            return null;
        }
        if (l == null) {
            l = new StorageException("the database file " + file + " " + change + " while the host runs;"
                    + " nothing is stored until it is back or the host restarts");
            lost = l;
            LOG.log(System.Logger.Level.ERROR, l.getMessage());
        }
        return l;
    }

    private String change() {
        if (key == null) {
            return null;
        }
        Object now;
        try {
            now = attributes(file).fileKey();
        } catch (NoSuchFileException e) {
            return "was deleted";
        } catch (IOException e) {
            return "cannot be looked at (" + e.getMessage() + ")";
        }
        return key.equals(now) ? null : "was replaced by another file";
    }

    private static BasicFileAttributes attributes(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }
}
