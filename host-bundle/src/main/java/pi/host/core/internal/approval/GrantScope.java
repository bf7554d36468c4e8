package pi.host.core.internal.approval;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one call needs an allow-session grant to cover, and so exactly what an allow-session answer on
 * its card grants (spec §4a: an outside path is a capability of its own):
 *
 * <ul>
 *   <li>{@code inRoots}: the tool's calls whose paths are all inside the session's roots and none of
 *       them a protected location (a tool without paths: every call). An in-root card grants only this,
 *       so it never covers an outside path, a repository control file or a link that leads out;</li>
 *   <li>{@code paths}: each outside (or protected) location the call names, canonical; a directory
 *       argument (Glob, Grep) covers what is below it, a file only itself.</li>
 * </ul>
 *
 * @param toolName the exposed tool name; grants never cross tools
 * @param inRoots true when the call has an in-root part (or no path at all)
 * @param paths the canonical locations outside the ordinary in-root scope, in declaration order
 */
public record GrantScope(String toolName, boolean inRoots, List<Area> paths) {

    /**
     * One location a grant covers.
     *
     * @param path canonical and absolute
     * @param below true for a directory argument: the location and everything below it
     */
    public record Area(Path path, boolean below) {

        public Area {
            Objects.requireNonNull(path, "path");
            if (!path.isAbsolute()) {
                throw new IllegalArgumentException("a granted path is absolute: " + path);
            }
        }

        /** True when {@code location} is this area (or, for a directory, below it); component-wise, never by prefix. */
        public boolean covers(Path location) {
            return below ? location.startsWith(path) : location.equals(path);
        }
    }

    public GrantScope {
        Objects.requireNonNull(toolName, "toolName");
        paths = List.copyOf(paths);
        if (!inRoots && paths.isEmpty()) {
            throw new IllegalArgumentException("a grant scope covers the roots, some paths, or both");
        }
    }

    /** The scope of a call that touches nothing outside the roots (or has no path). */
    public static GrantScope roots(String toolName) {
        return new GrantScope(toolName, true, List.of());
    }

    /** How a card shows the scope (paths as plain strings). */
    public record Wire(String toolName, boolean inRoots, List<WirePath> paths, String text) {
    }

    /** One granted location on the wire. */
    public record WirePath(String path, boolean below) {
    }

    /** The scope as the card's {@code grantScope} field. */
    public Wire wire() {
        return new Wire(toolName, inRoots, paths.stream().map(a -> new WirePath(a.path().toString(), a.below()))
                .toList(), text());
    }

    /** One line for the card: what "allow for this session" will let through without asking. */
    public String text() {
        StringBuilder b = new StringBuilder("allow-session lets ").append(toolName).append(" run without a card");
        if (inRoots) {
            b.append(paths.isEmpty() ? " inside the session's roots" : " inside the session's roots and");
        }
        for (int i = 0; i < paths.size(); i++) {
            Area a = paths.get(i);
            b.append(i == 0 ? " on " : ", ").append(a.path()).append(a.below() ? " and below it" : " only");
        }
        return b.append(", in this session (never on another outside path, the host's data dir or a repository"
                + " control file that this card does not name)").toString();
    }
}
