package pi.host.core.internal.fs;

/**
 * Where {@code openat2} is missing (Linux before 5.6, or a seccomp filter that refuses it): the path
 * is walked one name at a time, each directory opened with {@code O_PATH | O_DIRECTORY | O_NOFOLLOW}
 * relative to the one before, the last name with {@code O_NOFOLLOW}. A link met on the way is not a
 * directory (ENOTDIR), a final link is ELOOP; the names are checked ({@code ..} never reaches here),
 * so the walk cannot leave the directory it started from.
 */
final class OpenatWalk implements Resolver {

    static final String NAME = "openat walk";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int open(int dirfd, String relative, int flags, int mode) {
        int current = dirfd;
        int start = 0;
        try {
            while (true) {
                int slash = relative.indexOf('/', start);
                if (slash < 0) {
                    String last = relative.isEmpty() ? "." : relative.substring(start);
                    return openat(current, last, flags | LibC.O_NOFOLLOW, mode);
                }
                int next = openat(current, relative.substring(start, slash),
                        LibC.O_PATH | LibC.O_DIRECTORY | LibC.O_NOFOLLOW, 0);
                if (next < 0) {
                    return next;
                }
                if (current != dirfd) {
                    LibC.close(current);
                }
                current = next;
                start = slash + 1;
            }
        } finally {
            if (current != dirfd) {
                LibC.close(current);
            }
        }
    }

    private static int openat(int dirfd, String name, int flags, int mode) {
        byte[] path = LibC.path(name);
        while (true) {
            int fd = LibC.openat(dirfd, path, flags | LibC.O_CLOEXEC, mode);
            if (fd >= 0) {
                return fd;
            }
            int errno = LibC.errno();
            if (errno != LibC.EINTR) {
                return -errno;
            }
        }
    }
}
