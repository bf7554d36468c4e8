package pi.host.core.internal.fs;

/**
 * {@code openat2(2)} (Linux 5.6+) with {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS}: the kernel resolves the whole path in one call and refuses any link and
 * any step out of the directory, atomically with the open.
 */
final class Openat2 implements Resolver {

    static final String NAME = "openat2";
    private static final long RESOLVE = LibC.RESOLVE_BENEATH | LibC.RESOLVE_NO_SYMLINKS | LibC.RESOLVE_NO_MAGICLINKS;
    /** EAGAIN: the kernel saw a rename race it could not rule out; it asks to be called again. */
    private static final int RETRIES = 16;

    /** Whether this kernel (and its seccomp filter) lets the call through. */
    static boolean available() {
        long fd = LibC.syscall(LibC.SYS_OPENAT2, LibC.AT_FDCWD, LibC.path("."),
                new long[] {LibC.O_PATH | LibC.O_DIRECTORY | LibC.O_CLOEXEC, 0, RESOLVE}, LibC.OPEN_HOW_SIZE);
        if (fd < 0) {
            // ENOSYS before 5.6; EPERM or ENOSYS from container seccomp profiles that do not know it
            return false;
        }
        LibC.close((int) fd);
        return true;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int open(int dirfd, String relative, int flags, int mode) {
        byte[] path = LibC.path(relative.isEmpty() ? "." : relative);
        long[] how = {flags | LibC.O_CLOEXEC | LibC.O_NOFOLLOW, mode, RESOLVE};
        for (int attempt = 0; ; attempt++) {
            long fd = LibC.syscall(LibC.SYS_OPENAT2, dirfd, path, how, LibC.OPEN_HOW_SIZE);
            if (fd >= 0) {
                return (int) fd;
            }
            int errno = LibC.errno();
            if ((errno != LibC.EAGAIN && errno != LibC.EINTR) || attempt == RETRIES) {
                return -errno;
            }
        }
    }
}
