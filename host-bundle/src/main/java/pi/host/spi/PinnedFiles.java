package pi.host.spi;

import java.io.IOException;
import java.nio.file.Path;
import org.osgi.annotation.versioning.ProviderType;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;

/**
 * Race-free file access (issue 13): the native edge that pins a directory by its descriptor and
 * opens everything below it without following links ({@code openat2} with
 * {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS} on Linux 5.6 and newer, an {@code openat} walk with
 * {@code O_NOFOLLOW} on older kernels). Where neither exists {@link #pin} refuses. The final open
 * of every file tool goes through it, so the host's last path check and the tool's I/O cannot be
 * split by a swapped folder.
 */
@ProviderType
public interface PinnedFiles {

    /** How names are resolved here: {@code openat2}, {@code openat walk}, or {@code unavailable}. */
    String mechanism();

    /**
     * Pins the directory at a canonical absolute path by its own descriptor; every component of it
     * must be a real directory (a link on the way is {@link PathChangedException}). Later renames
     * of the path do not move what the pinned directory names.
     */
    PinnedDir pin(Path canonicalDirectory) throws IOException;

    /**
     * The directory at a canonical absolute path without a descriptor of its own: each use resolves
     * the path and the names below it together, in one call, from the descriptor of {@code /} the
     * edge holds, with the same rules (no link anywhere, nothing out). As race-free as {@link #pin}
     * for each single use, and one open and close cheaper; what needs the directory itself (writes,
     * removals, making folders) pins it first.
     */
    PinnedDir at(Path canonicalDirectory) throws IOException;

    /**
     * The root a resolved path belongs to ({@link #at}): the session's workspace root, scratch dir or
     * visualization dir (as canonical paths), or {@code /} for an approved outside path, whose canonical
     * location then must hold no link at all.
     */
    default PinnedDir root(ToolCall call, ResolvedPath path) throws IOException {
        Path absolute = path.absolute();
        switch (path.root()) {
            case WORKSPACE:
                return at(canonicalPrefix(call.workspaceRoot(), absolute));
            case SCRATCH:
                return at(canonicalPrefix(call.scratchDir(), absolute));
            case VISUALIZATION:
                // the dir is named by its real path: a base or session folder that is a link is refused
                return at(((CallRoots) call).visualizationDir());
            default:
                return at(absolute.getRoot());
        }
    }

    /**
     * The root as a canonical path: the given root itself when the canonical {@code absolute}
     * starts with it (a prefix of a canonical path is canonical), else the root's real path.
     */
    private static Path canonicalPrefix(Path root, Path absolute) throws IOException {
        Path given = root.toAbsolutePath().normalize();
        return absolute.startsWith(given) ? given : given.toRealPath();
    }
}
