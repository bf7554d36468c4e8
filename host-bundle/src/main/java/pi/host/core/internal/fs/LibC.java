package pi.host.core.internal.fs;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The libc calls of the race-free file edge, bound by JNA direct mapping (a few hundred
 * nanoseconds a call, against microseconds for interface mapping: Read makes about seven of them).
 * errno is read with {@link Native#getLastError()} right after a call that returned -1. Paths are
 * NUL-terminated byte arrays in the JDK's own file name encoding ({@link #path}), so a name means
 * the same bytes here as in {@code java.nio.file}. Linux on x86_64 and aarch64 only: the flag
 * values below are those two ABIs' (they differ for {@code O_DIRECTORY} and {@code O_NOFOLLOW}).
 */
final class LibC {

    static final int AT_FDCWD = -100;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int AT_SYMLINK_FOLLOW = 0x400;
    static final int AT_EMPTY_PATH = 0x1000;

    static final int O_RDONLY = 0;
    static final int O_RDWR = 2;
    static final int O_CREAT = 0x40;
    static final int O_EXCL = 0x80;
    static final int O_NOCTTY = 0x100;
    static final int O_NONBLOCK = 0x800;
    static final int O_CLOEXEC = 0x80000;
    static final int O_PATH = 0x200000;
    static final int O_DIRECTORY;
    static final int O_NOFOLLOW;
    /** {@code __O_TMPFILE | O_DIRECTORY}. */
    static final int O_TMPFILE;

    static final long RESOLVE_NO_MAGICLINKS = 0x02;
    static final long RESOLVE_NO_SYMLINKS = 0x04;
    static final long RESOLVE_BENEATH = 0x08;
    /** The same number on every Linux architecture (the unified table from 5.1 on). */
    static final long SYS_OPENAT2 = 437;
    /** {@code sizeof(struct open_how)}: three u64, flags, mode, resolve. */
    static final long OPEN_HOW_SIZE = 24;

    static final int STATX_BASIC_STATS = 0x7ff;
    static final int STATX_SIZE = 256;

    static final int S_IFMT = 0170000;
    static final int S_IFREG = 0100000;
    static final int S_IFDIR = 0040000;
    static final int S_IFLNK = 0120000;

    static final int O_WRONLY = 1;
    static final int O_APPEND = 0x400;
    static final int LOCK_EX = 2;
    static final int LOCK_NB = 4;

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EACCES = 13;
    static final int EEXIST = 17;
    static final int EXDEV = 18;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int EINVAL = 22;
    static final int ENOSPC = 28;
    static final int ENOSYS = 38;
    static final int ENOTEMPTY = 39;
    static final int ELOOP = 40;
    static final int EOPNOTSUPP = 95;

    /** How the JDK encodes file names ({@code sun.jnu.encoding}); UTF-8 when it does not say. */
    private static final Charset NAMES = names();

    static {
        if (!Platform.isLinux() || !(Platform.ARCH.equals("x86-64") || Platform.ARCH.equals("aarch64"))) {
            throw new UnsupportedOperationException("race-free opens are built for Linux on x86_64 and aarch64,"
                    + " not " + System.getProperty("os.name") + " on " + Platform.ARCH);
        }
        boolean arm = Platform.ARCH.equals("aarch64");
        O_DIRECTORY = arm ? 0x4000 : 0x10000;
        O_NOFOLLOW = arm ? 0x8000 : 0x20000;
        O_TMPFILE = 0x400000 | O_DIRECTORY;
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    /** {@code syscall(SYS_openat2, dirfd, path, &how, sizeof how)}; {@code how} is {flags, mode, resolve}. */
    static native long syscall(long number, int dirfd, byte[] path, long[] how, long size);

    static native int openat(int dirfd, byte[] path, int flags, int mode);

    static native int close(int fd);

    static native long read(int fd, ByteBuffer buffer, long count);

    static native long write(int fd, ByteBuffer buffer, long count);

    static native long write(int fd, byte[] buffer, long count);

    static native int ftruncate(int fd, long length);

    static native int statx(int dirfd, byte[] path, int flags, int mask, ByteBuffer statx);

    static native int mkdirat(int dirfd, byte[] path, int mode);

    static native int unlinkat(int dirfd, byte[] path, int flags);

    static native int linkat(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath, int flags);

    static native int renameat(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath);

    static native int fchmod(int fd, int mode);

    static native int fsync(int fd);

    static native int flock(int fd, int operation);

    /** errno of the last call on this thread. */
    static int errno() {
        return Native.getLastError();
    }

    /** {@code s} as a NUL-terminated file name. */
    static byte[] path(String s) {
        byte[] b = s.getBytes(NAMES);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }

    private static Charset names() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }
}
