package pi.host.core.internal.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import pi.host.spi.FileInfo;

/** {@code statx(2)}: the layout of {@code struct statx} is the same on every architecture. */
final class Statx {

    private static final int MODE = 28;
    private static final int INODE = 32;
    private static final int SIZE = 40;
    private static final int DEV_MAJOR = 136;
    private static final int DEV_MINOR = 140;
    /** Direct, so JNA passes its address instead of copying an array in and out. */
    private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(LibC.STATX_SIZE).order(ByteOrder.nativeOrder()));

    private Statx() {
    }

    /** The descriptor's own inode. */
    static FileInfo of(int fd, String where) throws IOException {
        FileInfo info = at(fd, "", LibC.AT_EMPTY_PATH, where);
        if (info == null) {
            throw Errno.exception(LibC.ENOENT, "statx", where);
        }
        return info;
    }

    /** The inode {@code name} (one name) names in {@code dirfd}, its link not followed; null when there is none. */
    static FileInfo at(int dirfd, String name, int flags, String where) throws IOException {
        ByteBuffer b = BUFFER.get();
        byte[] path = LibC.path(name);
        while (LibC.statx(dirfd, path, flags | LibC.AT_SYMLINK_NOFOLLOW, LibC.STATX_BASIC_STATS, b) != 0) {
            int errno = LibC.errno();
            if (errno == LibC.ENOENT) {
                return null;
            }
            if (errno != LibC.EINTR) {
                throw Errno.exception(errno, "statx", where);
            }
        }
        int mode = b.getShort(MODE) & 0xffff;
        FileInfo.Type type;
        switch (mode & LibC.S_IFMT) {
            case LibC.S_IFREG:
                type = FileInfo.Type.FILE;
                break;
            case LibC.S_IFDIR:
                type = FileInfo.Type.DIRECTORY;
                break;
            case LibC.S_IFLNK:
                type = FileInfo.Type.LINK;
                break;
            default:
                type = FileInfo.Type.OTHER;
        }
        long device = ((b.getInt(DEV_MAJOR) & 0xffffffffL) << 32) | (b.getInt(DEV_MINOR) & 0xffffffffL);
        return new FileInfo(type, b.getLong(SIZE), mode & 0777, device, b.getLong(INODE));
    }
}
