package pi.host.core.internal.fs;

import java.io.IOException;
import java.nio.file.Path;
import pi.host.core.internal.paths.RelativeNames;
import pi.host.spi.FileInfo;
import pi.host.spi.PathChangedException;
import pi.host.spi.PinnedDir;
import pi.host.spi.PinnedFile;

/**
 * A directory every name below it is resolved from by the {@link Resolver}: either pinned (its own
 * {@code O_PATH} descriptor) or named by its canonical path below the pinned {@code /} ({@code prefix}
 * is then that path, resolved together with the names below it, in the same call). The second form
 * costs no descriptor of its own; whatever needs the directory itself (a write, a removal, making
 * folders) pins it first.
 */
final class FdDir implements PinnedDir {

    private final LinuxFiles files;
    private final int fd;
    private final Path path;
    /** "" when {@code fd} is this directory's; else its path below {@code fd}, the descriptor of "/". */
    private final String prefix;
    /** Whether {@code fd} is this object's to close (not the shared descriptor of "/"). */
    private final boolean owned;
    private boolean closed;

    /** A pinned directory: {@code fd} is its own and is closed with it. */
    FdDir(LinuxFiles files, int fd, Path path) {
        this(files, fd, path, "", true);
    }

    /** The directory at {@code prefix} below {@code slash}, the descriptor of "/" (not closed with it). */
    static FdDir below(LinuxFiles files, int slash, Path path, String prefix) {
        return new FdDir(files, slash, path, prefix, false);
    }

    private FdDir(LinuxFiles files, int fd, Path path, String prefix, boolean owned) {
        this.files = files;
        this.fd = fd;
        this.path = path;
        this.prefix = prefix;
        this.owned = owned;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public String relative(Path absolute) {
        if (absolute.equals(path)) {
            return "";
        }
        if (!absolute.startsWith(path)) {
            throw new IllegalArgumentException(absolute + " is not below " + path);
        }
        return RelativeNames.of(path, absolute);
    }

    @Override
    public FileInfo stat(String relative) throws IOException {
        check(relative);
        String full = full(relative);
        if (full.isEmpty()) {
            return Statx.of(fd, path.toString());
        }
        int slash = full.lastIndexOf('/');
        if (slash < 0) {
            return Statx.at(fd, full, 0, where(relative));
        }
        int parent = files.resolver.open(fd, full.substring(0, slash), LibC.O_PATH | LibC.O_DIRECTORY, 0);
        if (parent == -LibC.ENOENT) {
            return null;
        }
        if (parent < 0) {
            throw Errno.exception(-parent, files.resolver.name(), where(relative));
        }
        try {
            return Statx.at(parent, full.substring(slash + 1), 0, where(relative));
        } finally {
            LibC.close(parent);
        }
    }

    @Override
    public PinnedFile open(String relative) throws IOException {
        check(relative);
        if (relative.isEmpty()) {
            throw new IllegalArgumentException("a pinned directory is not a file to read");
        }
        // O_NONBLOCK: a FIFO or device swapped in must not hang the open; a regular file ignores it
        int file = files.resolver.open(fd, full(relative), LibC.O_RDONLY | LibC.O_NONBLOCK | LibC.O_NOCTTY, 0);
        if (file < 0) {
            throw Errno.exception(-file, files.resolver.name(), where(relative));
        }
        try {
            FileInfo info = Statx.of(file, where(relative));
            if (!info.regularFile()) {
                throw new PathChangedException(where(relative) + " is not a regular file ("
                        + info.type().name().toLowerCase(java.util.Locale.ROOT) + "); nothing was read");
            }
            PinnedFile opened = new FdFile(file, info, where(relative));
            file = -1;
            return opened;
        } finally {
            if (file >= 0) {
                LibC.close(file);
            }
        }
    }

    @Override
    public PinnedDir dir(String relative, boolean create) throws IOException {
        check(relative);
        int dir = files.resolver.open(fd, full(relative), LibC.O_PATH | LibC.O_DIRECTORY, 0);
        if (dir == -LibC.ENOENT && create) {
            if (!prefix.isEmpty()) {
                try (FdDir self = pinned()) {
                    return self.dir(relative, true);
                }
            }
            dir = make(relative);
        }
        if (dir < 0) {
            throw Errno.exception(-dir, files.resolver.name(), where(relative));
        }
        return new FdDir(files, dir, relative.isEmpty() ? path : path.resolve(relative));
    }

    /** Makes the missing directories of {@code relative} one at a time, each opened before the next is made in it. */
    private int make(String relative) throws IOException {
        int current = fd;
        try {
            for (String name : relative.split("/")) {
                int next = files.resolver.open(current, name, LibC.O_PATH | LibC.O_DIRECTORY, 0);
                if (next == -LibC.ENOENT) {
                    int errno = LibC.mkdirat(current, LibC.path(name), 0777) == 0 ? 0 : LibC.errno();
                    if (errno != 0 && errno != LibC.EEXIST) {
                        throw Errno.exception(errno, "mkdirat", where(relative));
                    }
                    next = files.resolver.open(current, name, LibC.O_PATH | LibC.O_DIRECTORY, 0);
                }
                if (next < 0) {
                    return next;
                }
                if (current != fd) {
                    LibC.close(current);
                }
                current = next;
            }
            int made = current;
            current = fd;
            return made;
        } finally {
            if (current != fd) {
                LibC.close(current);
            }
        }
    }

    @Override
    public void write(String name, byte[] bytes, String mode, boolean replace) throws IOException {
        checkName(name);
        if (!prefix.isEmpty()) {
            try (FdDir self = pinned()) {
                self.write(name, bytes, mode, replace);
            }
            return;
        }
        files.writer.write(fd, path, name, bytes, FileInfo.permissions(mode), replace);
    }

    @Override
    public void delete(String relative) throws IOException {
        check(relative);
        if (relative.isEmpty()) {
            throw new IllegalArgumentException("a pinned directory does not delete itself");
        }
        int slash = relative.lastIndexOf('/');
        if (slash < 0 && prefix.isEmpty()) {
            unlink(fd, relative, relative);
            return;
        }
        try (FdDir parent = (FdDir) dir(slash < 0 ? "" : relative.substring(0, slash), false)) {
            unlink(parent.fd, relative.substring(slash + 1), relative);
        }
    }

    private void unlink(int dirfd, String name, String relative) throws IOException {
        if (LibC.unlinkat(dirfd, LibC.path(name), 0) != 0) {
            throw Errno.exception(LibC.errno(), "unlinkat", where(relative));
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (owned) {
                LibC.close(fd);
            }
        }
    }

    /** This directory with a descriptor of its own. */
    private FdDir pinned() throws IOException {
        return (FdDir) dir("", false);
    }

    /** {@code relative} as resolved from {@code fd}. */
    private String full(String relative) {
        return prefix.isEmpty() ? relative : relative.isEmpty() ? prefix : prefix + "/" + relative;
    }

    private String where(String relative) {
        return relative.isEmpty() ? path.toString() : path.resolve(relative).toString();
    }

    /** Names joined with '/', none empty, '.' or '..' and none with a NUL: nothing that could step out. */
    static void check(String relative) {
        if (relative.isEmpty()) {
            return;
        }
        int start = 0;
        while (true) {
            int slash = relative.indexOf('/', start);
            checkName(slash < 0 ? relative.substring(start) : relative.substring(start, slash));
            if (slash < 0) {
                return;
            }
            start = slash + 1;
        }
    }

    static void checkName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
                || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a plain name below a pinned directory: '" + name + "'");
        }
    }
}
