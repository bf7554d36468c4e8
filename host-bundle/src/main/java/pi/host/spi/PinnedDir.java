package pi.host.spi;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A directory held open by its descriptor: every name below it is resolved by the kernel from that
 * descriptor, component by component, beneath it and with no symbolic link allowed anywhere (a
 * link is refused, never followed). So a folder on the way that is swapped for a link after the
 * host checked the path cannot redirect a read or a write, and nothing done here can leave the
 * directory. Relative paths are names joined with {@code /}; {@code ""} is the directory itself;
 * {@code .}, {@code ..} and empty names are refused ({@link IllegalArgumentException}).
 *
 * <p>Errors: {@link java.nio.file.NoSuchFileException} for a missing name, {@link PathChangedException}
 * for a link, a non-directory on the way or a non-regular file where one is read. One thread uses a
 * pinned directory at a time; close it.
 */
@ProviderType
public interface PinnedDir extends Closeable {

    /** Where the directory was when it was pinned (canonical). */
    Path path();

    /**
     * {@code absolute} as a path relative to this directory.
     *
     * @throws IllegalArgumentException when it is not {@link #path()} or below it
     */
    String relative(Path absolute);

    /** What is at {@code relative} (a link there is reported as a link), or null when nothing is. */
    FileInfo stat(String relative) throws IOException;

    /** Opens the regular file at {@code relative} for reading (without blocking on a FIFO or device). */
    PinnedFile open(String relative) throws IOException;

    /**
     * Pins the directory at {@code relative}; with {@code create}, missing directories on the way are
     * made (mode {@code 0777} less the umask), each one below the last.
     */
    PinnedDir dir(String relative, boolean create) throws IOException;

    /**
     * Writes the file {@code name} (one name, in this directory) whole and atomically: the content
     * goes to an unnamed temporary file in this directory ({@code O_TMPFILE}) that is fsynced and
     * given {@code mode}, then linked in under {@code name}, or, when {@code name} exists and
     * {@code replace} is set, renamed over it (a reader sees the old or the new content, a hard link
     * to the old file keeps the old content). A host killed while writing leaves no file behind.
     *
     * @param mode the permission bits ({@code rw-r--r--})
     * @param replace false: never replace; an existing name is {@link java.nio.file.FileAlreadyExistsException}
     */
    void write(String name, byte[] bytes, String mode, boolean replace) throws IOException;

    /** Removes the file (or link) at {@code relative}; never a directory. */
    void delete(String relative) throws IOException;

    @Override
    void close();
}
