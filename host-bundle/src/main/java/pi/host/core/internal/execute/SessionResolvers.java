package pi.host.core.internal.execute;

import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import pi.host.core.internal.paths.PathResolver;
import pi.host.core.internal.session.SessionListener;

/**
 * One {@link PathResolver} per session, kept between calls. Building one canonicalises both roots
 * (a dozen file-system calls, and exceptions while the scratch dir does not exist yet): measured as
 * an eighth of a small Read's cost over stdio. A session's roots never change, so neither does its
 * resolver; the workspace must still be an existing directory at every call.
 *
 * <p>A kept resolver holds the roots' real locations as they were when it was built. A root that is
 * later swapped for a link to somewhere else is therefore not followed: paths through it resolve
 * outside the root and are outside paths (a permission card), never implicit access.
 */
final class SessionResolvers implements SessionListener {

    private record Kept(Path workspace, Path scratch, PathResolver resolver) {
    }

    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();

    /**
     * The session's resolver.
     *
     * @throws IllegalArgumentException when the workspace root is not an existing directory
     * @throws RuntimeException as {@link PathResolver#PathResolver} when a root cannot be resolved
     */
    PathResolver of(String sessionId, Path workspace, Path scratch) {
        Kept k = kept.get(sessionId);
        if (k != null && k.workspace().equals(workspace) && k.scratch().equals(scratch)) {
            k.resolver().requireWorkspace();
            return k.resolver();
        }
        PathResolver resolver = new PathResolver(workspace, scratch);
        kept.put(sessionId, new Kept(workspace, scratch, resolver));
        return resolver;
    }

    @Override
    public void sessionDeleted(String sessionId) {
        kept.remove(sessionId);
    }
}
