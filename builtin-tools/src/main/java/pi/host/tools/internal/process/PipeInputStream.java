package pi.host.tools.internal.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.NativeLong;
import java.io.IOException;
import java.io.InputStream;

/**
 * The read end of a pipe, by its file descriptor, read with libc {@code read}: Java has no public
 * way to wrap a descriptor it did not open. The descriptor is never closed while a read is in
 * flight (a close from another thread leaves it to that read to close on return), so a descriptor
 * number the kernel hands out again can never be read by mistake.
 */
final class PipeInputStream extends InputStream {

    /** A Linux pipe holds 64 KiB: a read never returns more. */
    private static final int MAX_READ = 64 * 1024;

    private final int fd;
    /** Native memory the kernel reads into, allocated at the first read and freed on close. */
    private Memory buffer;
    private boolean reading;
    private boolean closed;
    private boolean released;

    PipeInputStream(int fd) {
        this.fd = fd;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        Memory into;
        synchronized (this) {
            if (closed) {
                throw new IOException("Stream closed");
            }
            reading = true;
            if (buffer == null) {
                buffer = new Memory(MAX_READ);
            }
            into = buffer;
        }
        try {
            int n = readOnce(into, Math.min(len, MAX_READ));
            if (n > 0) {
                into.read(0, b, off, n);
            }
            return n == 0 ? -1 : n;
        } finally {
            synchronized (this) {
                reading = false;
                if (closed) {
                    release();
                }
            }
        }
    }

    private int readOnce(Memory into, int len) throws IOException {
        while (true) {
            try {
                return Posix.read(fd, into, new NativeLong(len)).intValue();
            } catch (LastErrorException e) {
                if (e.getErrorCode() != Posix.EINTR) {
                    throw new IOException("read failed: " + Posix.strerror(e.getErrorCode()), e);
                }
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (!reading) {
            release();
        }
    }

    private void release() {
        if (!released) {
            released = true;
            Posix.close(fd);
            if (buffer != null) {
                buffer.close();
            }
        }
    }
}
