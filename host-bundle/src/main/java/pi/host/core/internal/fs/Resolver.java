package pi.host.core.internal.fs;

/**
 * How a relative path is opened beneath a directory descriptor with no symbolic link followed:
 * {@link Openat2} where the kernel has {@code openat2(2)}, {@link OpenatWalk} elsewhere on Linux.
 */
interface Resolver {

    /** The mechanism, as {@link pi.host.spi.PinnedFiles#mechanism()} reports it. */
    String name();

    /**
     * Opens {@code relative} (checked names joined with {@code /}; {@code ""}: the directory itself)
     * beneath {@code dirfd}. {@code O_CLOEXEC} and {@code O_NOFOLLOW} are always added.
     *
     * @return the new descriptor, or {@code -errno}: ELOOP for a link anywhere on the way, ENOTDIR
     *     for a component that is not a directory
     */
    int open(int dirfd, String relative, int flags, int mode);
}
