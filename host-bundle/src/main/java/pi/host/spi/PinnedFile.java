package pi.host.spi;

import java.io.Closeable;
import java.io.IOException;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A regular file opened for reading below a {@link PinnedDir}: every read is on the descriptor that
 * was opened, so what is read is the inode {@link #info()} describes, whatever the names do since.
 * One thread uses it; close it.
 */
@ProviderType
public interface PinnedFile extends Closeable {

    /** The file as it was when opened (its size may change while it is read). */
    FileInfo info();

    /**
     * Reads up to {@code length} bytes, fewer only at the end of the file.
     *
     * @return the bytes read, or -1 at the end of the file
     */
    int read(byte[] into, int offset, int length) throws IOException;

    /**
     * The whole file, to its end (a file that grows while it is read is read to its new end).
     *
     * @throws IOException when it is, or grows, larger than {@code max} bytes
     */
    byte[] readAll(long max) throws IOException;

    @Override
    void close();
}
