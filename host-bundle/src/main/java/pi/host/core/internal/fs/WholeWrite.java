package pi.host.core.internal.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes one file whole in a directory descriptor. The content goes to an {@code O_TMPFILE} inode,
 * which has no name while it is written, fsynced and given its mode: a host killed then leaves
 * nothing, the kernel frees the inode. It is linked in under its name ({@code linkat}, which never
 * replaces); when the name exists and may be replaced, it is linked under a temporary name and
 * renamed over it, and that name is noted in the {@link TempJournal} first, so a kill in the
 * microseconds between the link and the rename leaves a name the next start removes. A file system
 * without {@code O_TMPFILE} gets a named temporary file ({@code O_CREAT | O_EXCL | O_NOFOLLOW}),
 * journaled the same way.
 */
final class WholeWrite {

    static final String TEMP_PREFIX = ".pi-tmp-";

    private final TempJournal journal;
    /** False once a link by {@code AT_EMPTY_PATH} was refused (kernels that want CAP_DAC_READ_SEARCH for it). */
    private volatile boolean emptyPathLinks = true;

    WholeWrite(TempJournal journal) {
        this.journal = journal;
    }

    void write(int dirfd, Path dir, String name, byte[] bytes, int permissions, boolean replace) throws IOException {
        String where = dir.resolve(name).toString();
        int tmp = LibC.openat(dirfd, LibC.path("."), LibC.O_TMPFILE | LibC.O_RDWR | LibC.O_CLOEXEC, 0600);
        if (tmp < 0) {
            int errno = LibC.errno();
            if (errno != LibC.EOPNOTSUPP && errno != LibC.EISDIR && errno != LibC.EINVAL) {
                throw Errno.exception(errno, "open(O_TMPFILE)", where);
            }
            named(dirfd, dir, name, bytes, permissions, replace, where);
            return;
        }
        try {
            fill(tmp, bytes, permissions, where);
            if (link(tmp, dirfd, name, where)) {
                return; // a new file: no other name ever existed
            }
            if (!replace) {
                throw new FileAlreadyExistsException(where);
            }
            String temp = tempName();
            journal.begin(dir, temp);
            boolean renamed = false;
            try {
                if (!link(tmp, dirfd, temp, where)) {
                    throw new FileAlreadyExistsException(dir.resolve(temp).toString());
                }
                rename(dirfd, temp, name, where);
                renamed = true;
            } finally {
                if (!renamed) {
                    LibC.unlinkat(dirfd, LibC.path(temp), 0);
                }
                journal.end(temp);
            }
        } finally {
            LibC.close(tmp);
        }
    }

    /** Where the file system has no O_TMPFILE: a named, journaled temporary file. */
    private void named(int dirfd, Path dir, String name, byte[] bytes, int permissions, boolean replace,
            String where) throws IOException {
        String temp = tempName();
        journal.begin(dir, temp);
        boolean renamed = false;
        try {
            int fd = LibC.openat(dirfd, LibC.path(temp),
                    LibC.O_CREAT | LibC.O_EXCL | LibC.O_NOFOLLOW | LibC.O_RDWR | LibC.O_CLOEXEC, 0600);
            if (fd < 0) {
                throw Errno.exception(LibC.errno(), "openat", dir.resolve(temp).toString());
            }
            try {
                fill(fd, bytes, permissions, where);
            } finally {
                LibC.close(fd);
            }
            if (replace) {
                rename(dirfd, temp, name, where);
                renamed = true;
            } else if (LibC.linkat(dirfd, LibC.path(temp), dirfd, LibC.path(name), 0) != 0) {
                throw Errno.exception(LibC.errno(), "linkat", where);
            }
        } finally {
            if (!renamed) {
                LibC.unlinkat(dirfd, LibC.path(temp), 0);
            }
            journal.end(temp);
        }
    }

    private static void fill(int fd, byte[] bytes, int permissions, String where) throws IOException {
        ByteBuffer buf = FdFile.buffer();
        int done = 0;
        while (done < bytes.length) {
            int n = Math.min(bytes.length - done, buf.capacity());
            buf.put(0, bytes, done, n);
            long written = LibC.write(fd, buf, n);
            if (written < 0) {
                int errno = LibC.errno();
                if (errno == LibC.EINTR) {
                    continue;
                }
                throw Errno.exception(errno, "write", where);
            }
            done += (int) written;
        }
        if (LibC.fchmod(fd, permissions) != 0) {
            throw Errno.exception(LibC.errno(), "fchmod", where);
        }
        if (LibC.fsync(fd) != 0) {
            throw Errno.exception(LibC.errno(), "fsync", where);
        }
    }

    /** Gives the unnamed file {@code tmp} the name {@code name} in {@code dirfd}; false when that name exists. */
    private boolean link(int tmp, int dirfd, String name, String where) throws IOException {
        byte[] target = LibC.path(name);
        if (emptyPathLinks) {
            if (LibC.linkat(tmp, LibC.path(""), dirfd, target, LibC.AT_EMPTY_PATH) == 0) {
                return true;
            }
            int errno = LibC.errno();
            if (errno == LibC.EEXIST) {
                return false;
            }
            if (errno != LibC.ENOENT && errno != LibC.EPERM) {
                throw Errno.exception(errno, "linkat", where);
            }
            emptyPathLinks = false;
        }
        // open(2)'s documented way for O_TMPFILE files: the source is this process's own descriptor
        // (a magic link /proc resolves to that inode), the target a single name in the pinned directory
        if (LibC.linkat(LibC.AT_FDCWD, LibC.path("/proc/self/fd/" + tmp), dirfd, target, LibC.AT_SYMLINK_FOLLOW) == 0) {
            return true;
        }
        int errno = LibC.errno();
        if (errno == LibC.EEXIST) {
            return false;
        }
        throw Errno.exception(errno, "linkat", where);
    }

    private static void rename(int dirfd, String from, String to, String where) throws IOException {
        if (LibC.renameat(dirfd, LibC.path(from), dirfd, LibC.path(to)) != 0) {
            throw Errno.exception(LibC.errno(), "renameat", where);
        }
    }

    private static String tempName() {
        return TEMP_PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
    }
}
