package pi.host.core.internal.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import pi.host.spi.FileInfo;
import pi.host.spi.PinnedFile;

/**
 * A regular file read by {@code read(2)} on its own descriptor. The kernel copies into a direct
 * buffer kept per thread (as NIO does for heap buffers), then into the caller's array: one copy,
 * no allocation per read.
 */
final class FdFile implements PinnedFile {

    static final int CHUNK = 256 * 1024;
    private static final ThreadLocal<ByteBuffer> BUFFER =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(CHUNK));

    private final int fd;
    private final FileInfo info;
    private final String where;
    private boolean closed;
    /** A read returned 0: later reads answer -1 without asking the kernel again. */
    private boolean atEnd;

    FdFile(int fd, FileInfo info, String where) {
        this.fd = fd;
        this.info = info;
        this.where = where;
    }

    /** Direct buffer of this thread, for {@code read} and {@code write} on descriptors. */
    static ByteBuffer buffer() {
        return BUFFER.get();
    }

    @Override
    public FileInfo info() {
        return info;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, into.length);
        ByteBuffer buf = buffer();
        int done = 0;
        while (done < length && !atEnd) {
            long n = LibC.read(fd, buf, Math.min(length - done, CHUNK));
            if (n < 0) {
                int errno = LibC.errno();
                if (errno == LibC.EINTR) {
                    continue;
                }
                throw Errno.exception(errno, "read", where);
            }
            if (n == 0) {
                atEnd = true;
                break;
            }
            buf.get(0, into, offset + done, (int) n);
            done += (int) n;
        }
        return done == 0 && length > 0 ? -1 : done;
    }

    @Override
    public byte[] readAll(long max) throws IOException {
        if (info.size() > max) {
            throw new IOException(where + " is larger than " + max + " bytes");
        }
        byte[] bytes = new byte[(int) info.size()];
        int n = Math.max(0, read(bytes, 0, bytes.length));
        if (n < bytes.length) {
            return Arrays.copyOf(bytes, n); // it shrank meanwhile
        }
        // it may have grown since it was opened: read on to its end
        java.io.ByteArrayOutputStream rest = new java.io.ByteArrayOutputStream();
        byte[] more = new byte[8192];
        int m;
        while ((m = read(more, 0, more.length)) > 0) {
            if (bytes.length + (long) rest.size() + m > max) {
                throw new IOException(where + " grew past " + max + " bytes while it was read");
            }
            rest.write(more, 0, m);
        }
        if (rest.size() == 0) {
            return bytes;
        }
        byte[] all = Arrays.copyOf(bytes, bytes.length + rest.size());
        System.arraycopy(rest.toByteArray(), 0, all, bytes.length, rest.size());
        return all;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            LibC.close(fd);
        }
    }
}
