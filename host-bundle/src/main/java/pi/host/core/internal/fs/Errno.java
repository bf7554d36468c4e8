package pi.host.core.internal.fs;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import pi.host.spi.PathChangedException;

/** errno values as the exceptions {@code java.nio.file} throws; links and escapes as {@link PathChangedException}. */
final class Errno {

    private Errno() {
    }

    /**
     * @param call the failed call, for the message ({@code openat2}, {@code renameat}, ...)
     * @param where the path it was about, as the tool knows it
     */
    static IOException exception(int errno, String call, String where) {
        switch (errno) {
            case LibC.ENOENT:
                return new NoSuchFileException(where);
            case LibC.EEXIST:
                return new FileAlreadyExistsException(where);
            case LibC.EACCES:
            case LibC.EPERM:
                return new AccessDeniedException(where, null, call + ": " + name(errno));
            case LibC.ENOTEMPTY:
                return new DirectoryNotEmptyException(where);
            case LibC.ELOOP:
                return new PathChangedException(where + ": a symbolic link is on the path (" + call
                        + " follows none); nothing was read or written through it");
            case LibC.ENOTDIR:
                return new PathChangedException(where + ": a component of the path is a symbolic link or not a"
                        + " directory (" + call + "); nothing was read or written through it");
            case LibC.EXDEV:
                return new PathChangedException(where + ": the path leaves its pinned directory (" + call + ")");
            default:
                return new FileSystemException(where, null, call + ": " + name(errno));
        }
    }

    /** A refusal of a directory where the call needed one, for {@code dir} on a file. */
    static IOException notDirectory(String where) {
        return new NotDirectoryException(where);
    }

    static String name(int errno) {
        switch (errno) {
            case LibC.EPERM: return "EPERM";
            case LibC.ENOENT: return "ENOENT";
            case LibC.EINTR: return "EINTR";
            case LibC.EAGAIN: return "EAGAIN";
            case LibC.EACCES: return "EACCES";
            case LibC.EEXIST: return "EEXIST";
            case LibC.EXDEV: return "EXDEV";
            case LibC.ENOTDIR: return "ENOTDIR";
            case LibC.EISDIR: return "EISDIR (a directory is in the way)";
            case LibC.EINVAL: return "EINVAL";
            case LibC.ENOSPC: return "ENOSPC (no space left on the device)";
            case LibC.ENOSYS: return "ENOSYS";
            case LibC.ENOTEMPTY: return "ENOTEMPTY";
            case LibC.ELOOP: return "ELOOP";
            case LibC.EOPNOTSUPP: return "EOPNOTSUPP";
            default: return "errno " + errno;
        }
    }
}
