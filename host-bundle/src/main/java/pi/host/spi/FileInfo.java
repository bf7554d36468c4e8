package pi.host.spi;

import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * What one name below a {@link PinnedDir} is, as the kernel reported it for that very inode (never
 * through a link: a link is reported as {@link Type#LINK}).
 *
 * @param permissions the permission bits ({@code 0777} at most; set-id and sticky bits are not kept)
 * @param device the device the inode lives on, and {@code inode} its number: together its identity
 */
public record FileInfo(Type type, long size, int permissions, long device, long inode) {

    /** The kinds of inode a file tool tells apart. */
    public enum Type {
        FILE, DIRECTORY, LINK, OTHER
    }

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    public boolean regularFile() {
        return type == Type.FILE;
    }

    /** The permission bits as {@link PosixFilePermissions#toString} writes them ({@code rw-r--r--}). */
    public String mode() {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < BITS.length; i++) {
            if ((permissions & (1 << i)) != 0) {
                set.add(BITS[i]);
            }
        }
        return PosixFilePermissions.toString(set);
    }

    /** The bits of a mode string ({@code rw-r--r--}). */
    public static int permissions(String mode) {
        int bits = 0;
        for (PosixFilePermission p : PosixFilePermissions.fromString(mode)) {
            for (int i = 0; i < BITS.length; i++) {
                if (BITS[i] == p) {
                    bits |= 1 << i;
                }
            }
        }
        return bits;
    }
}
