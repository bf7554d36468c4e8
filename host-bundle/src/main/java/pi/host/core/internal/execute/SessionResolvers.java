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

    private record Kept(Path workspace, Path scratch, Path visualization, PathResolver resolver) {
    }

    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();

    /**
     * The session's resolver.
     *
     * @throws IllegalArgumentException when the workspace root is not an existing directory
     * @throws RuntimeException as {@link PathResolver#PathResolver} when a root cannot be resolved
     */
    PathResolver of(String sessionId, Path workspace, Path scratch) {
        return of(sessionId, workspace, scratch, null, null, false);
    }

    /**
     * The resolver of a session's call: kept per session and workspace root (an isolated session's
     * delegates each work in a worktree of their own), rebuilt when the visualization dir comes or goes.
     */
    PathResolver of(String sessionId, Path workspace, Path scratch, Path visualization, Path visualizationGiven,
            boolean workspaceIsOwn) {
        String key = sessionId + '\0' + workspace;
        Kept k = kept.get(key);
        if (k != null && k.workspace().equals(workspace) && k.scratch().equals(scratch)
                && java.util.Objects.equals(k.visualization(), visualization)) {
            k.resolver().requireWorkspace();
            return k.resolver();
        }
        PathResolver resolver = new PathResolver(workspace, scratch, visualization, visualizationGiven, workspaceIsOwn);
        kept.put(key, new Kept(workspace, scratch, visualization, resolver));
        return resolver;
    }

    @Override
    public void sessionDeleted(String sessionId) {
        kept.keySet().removeIf(key -> key.startsWith(sessionId + '\0'));
    }
}
