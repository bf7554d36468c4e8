package pi.host.tools.internal.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The libc calls that every POSIX libc has (glibc of any age, musl, macOS), bound directly: the
 * pipes of {@link PipeInputStream} and {@link OwnPipes} work wherever JNA does, not only where
 * {@link NativeSpawn}'s glibc 2.34 calls exist.
 */
final class Posix {

    static final int EINTR = 4;
    private static final int F_SETFD = 2;
    private static final int FD_CLOEXEC = 1;

    static {
        Native.register(Posix.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    /** fcntl is variadic: direct mapping cannot call it correctly everywhere (Apple arm64), the interface can. */
    private interface Variadic extends Library {
        int fcntl(int fd, int cmd, Object... args);
    }

    private static final Variadic VARIADIC = Native.load(Platform.C_LIBRARY_NAME, Variadic.class);

    private Posix() {
    }

    static native int pipe(int[] fds) throws LastErrorException;

    static native NativeLong read(int fd, Pointer buf, NativeLong count) throws LastErrorException;

    static native int close(int fd);

    static native String strerror(int errno);

    /** Marks {@code fd} close-on-exec; false when that failed. */
    static boolean closeOnExec(int fd) {
        return VARIADIC.fcntl(fd, F_SETFD, FD_CLOEXEC) == 0;
    }
}
