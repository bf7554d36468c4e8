package pi.host.spi;

import java.io.IOException;

/**
 * A name below a {@link PinnedDir} is not what a race-free open accepts: a symbolic link somewhere
 * on the way, a component that is not a directory, or not a regular file where one is read. For a
 * path the host resolved, it changed after the check (a folder swapped for a link, say): nothing
 * was read or written through it.
 */
public final class PathChangedException extends IOException {

    private static final long serialVersionUID = 1L;

    public PathChangedException(String message) {
        super(message);
    }
}
