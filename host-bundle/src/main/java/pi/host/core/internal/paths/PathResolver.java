package pi.host.core.internal.paths;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Objects;
import pi.host.api.ErrorCode;
import pi.host.api.PathKind;
import pi.host.api.ResolvedPath;
import pi.host.api.ResolvedPath.Root;

/**
 * Resolves and confines a tool's path argument against a session's two roots (spec §4, §4a, §4b):
 * the workspace root and the scratch dir. It reads the file system but never creates anything.
 *
 * <p>Containment uses two layers for each root, as the spec asks. The lexical layer normalizes
 * {@code .} and {@code ..} (relative paths start at the workspace root) and notes which root the
 * path names; the canonical layer follows every symbolic link (final and dangling ones included)
 * and must land in that same root. So {@code ..} escapes, symlink escapes and links from one root
 * into the other are all {@link Root#EXTERNAL}: outside-path requests that need permission, never
 * implicit access. A path whose spelling is outside both roots but which really lands inside one
 * (a link elsewhere pointing in) takes the root it lands in: it touches nothing else.
 *
 * <p>When one root lies inside the other, the inner, more specific root is tried first (spec §4b.1:
 * scratch is checked before the workspace so a data dir inside a project stays controlled); when
 * they are the same directory, as in a temporary session, the path is a workspace path.
 */
public final class PathResolver {

    private record RootSpec(Root root, Path given, Path real) {
        boolean holds(Path p) {
            return p.startsWith(given) || p.startsWith(real);
        }
    }

    /** Where the canonical walk landed, what it found there (null: nothing), and how the path is reported. */
    private record Located(ResolvedPath path, BasicFileAttributes attributes, boolean trailingSlash) {
    }

    private final Path workspace;
    private final Path workspaceReal;
    private final Path scratchReal;
    /** The session's visualization dir (real spelling, never canonicalised), or null while it is off. */
    private final RootSpec visualization;
    private final List<Path> ownRoots;
    /** Most specific root first. */
    private final List<RootSpec> roots;

    /**
     * @param workspaceRoot the session's workspace root; it must be an existing directory
     * @param scratchDir the session's scratch dir; it may not exist yet (it is created lazily)
     * @throws IllegalArgumentException when the workspace root is not an existing directory
     */
    public PathResolver(Path workspaceRoot, Path scratchDir) {
        this(workspaceRoot, scratchDir, null, null, false);
    }

    /**
     * A resolver with the session's visualization dir as a third root (spec §4b.1), and an isolated
     * session's worktree (which lives in the data dir) as one of its own roots there.
     *
     * @param visualizationReal the visualization dir under the data dir's real location, or null while off
     * @param visualizationGiven the same dir under the data dir as it was named (an alias), or null
     * @param workspaceIsOwn true when the workspace root is the session's own folder in the data dir (its worktree)
     */
    public PathResolver(Path workspaceRoot, Path scratchDir, Path visualizationReal, Path visualizationGiven,
            boolean workspaceIsOwn) {
        workspace = workspaceRoot.toAbsolutePath().normalize();
        requireWorkspace();
        try {
            workspaceReal = workspace.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve the workspace root " + workspace, e);
        }
        Path scratch = scratchDir.toAbsolutePath().normalize();
        try {
            scratchReal = Canonicalizer.canonical(scratch);
        } catch (PathException e) {
            throw new IllegalArgumentException("cannot resolve the scratch dir " + scratch + ": " + e.getMessage());
        }
        visualization = visualizationReal == null ? null : new RootSpec(Root.VISUALIZATION,
                visualizationGiven == null ? visualizationReal : visualizationGiven, visualizationReal);
        List<Path> own = new java.util.ArrayList<>(List.of(scratchReal));
        if (visualizationReal != null) {
            own.add(visualizationReal);
        }
        if (workspaceIsOwn) {
            own.add(workspaceReal);
        }
        ownRoots = List.copyOf(own);
        RootSpec ws = new RootSpec(Root.WORKSPACE, workspace, workspaceReal);
        RootSpec sc = new RootSpec(Root.SCRATCH, scratch, scratchReal);
        boolean scratchNested = scratchReal.startsWith(workspaceReal) && !scratchReal.equals(workspaceReal);
        roots = scratchNested ? List.of(sc, ws) : List.of(ws, sc);
    }

    /** The scratch dir's real location (it may not exist yet). */
    public Path scratchRoot() {
        return scratchReal;
    }

    /**
     * The session's own roots inside the host's data dir, real: its scratch dir, its visualization dir
     * while that is on, and an isolated session's worktree (the call's: a write delegate's own); every
     * other location in the data dir, another session's worktree or the session's own worktree in a
     * delegate's call included, is host state to the pipeline.
     */
    public List<Path> ownRoots() {
        return ownRoots;
    }

    /**
     * Checks that the workspace root is still an existing directory (a resolver kept between calls
     * checks it at each call, as building one does).
     *
     * @throws IllegalArgumentException when it is not
     */
    public void requireWorkspace() {
        if (!Files.isDirectory(workspace)) {
            throw new IllegalArgumentException("workspace root is not an existing directory: " + workspace);
        }
    }

    /**
     * Resolves a path argument before policy.
     *
     * @param raw the argument as sent; relative to the workspace root unless absolute
     * @param kind what it must name; not {@link PathKind#NONE}
     * @throws PathException INVALID_ARGUMENT for malformed input, a link loop or the wrong kind
     */
    public Resolution resolve(String raw, PathKind kind) throws PathException {
        requireKind(kind);
        Located at = locate(raw);
        ResolvedPath path = at.path();
        if (path.root() != Root.EXTERNAL) {
            // an outside path is checked only after approval (recheck): before it, the answer would
            // tell the model whether an outside file exists without anyone having allowed the look
            KindCheck.verify(path.absolute(), at.attributes(), kind, at.trailingSlash(), path.display());
        }
        return new Resolution(raw, path, path.root() == Root.EXTERNAL, at.attributes() != null);
    }

    /**
     * Resolves the argument again from scratch right before execution, after approval, so a link
     * planted or swapped in the meantime cannot redirect an approved call (spec §4).
     *
     * @return the location to act on, equal to the one that was checked
     * @throws PathException TOOL_DENIED when the path now lands anywhere else (another root or another
     *     location); INVALID_ARGUMENT when it no longer is the right kind
     */
    public ResolvedPath recheck(Resolution checked, PathKind kind) throws PathException {
        Objects.requireNonNull(checked, "checked");
        requireKind(kind);
        Located at = locate(checked.raw());
        if (!at.path().equals(checked.path())) {
            throw new PathException(ErrorCode.TOOL_DENIED, "the path changed after it was checked: '"
                    + checked.raw() + "' was " + checked.path() + " and now resolves to " + at.path()
                    + "; not executed");
        }
        KindCheck.verify(at.path().absolute(), at.attributes(), kind, at.trailingSlash(), at.path().display());
        return at.path();
    }

    private Located locate(String raw) throws PathException {
        Path given = RawPath.parse(workspace.getFileSystem(), raw);
        Path lexical = (given.isAbsolute() ? given : workspace.resolve(given)).normalize();
        Canonicalizer.Walk walk = Canonicalizer.walk(lexical);
        Path canonical = walk.path();
        Root root = classify(lexical, canonical, given.isAbsolute());
        return new Located(new ResolvedPath(root, canonical, display(root, canonical)), walk.attributes(),
                RawPath.namesDirectory(workspace.getFileSystem(), raw));
    }

    private Root classify(Path lexical, Path canonical, boolean absolute) throws PathException {
        if (visualization != null && absolute && visualization.holds(lexical)) {
            // absolute paths only, checked before the others; its folders must be real: a base or session
            // folder replaced by a link is not followed anywhere (spec §4b.1)
            if (canonical.startsWith(visualization.real())) {
                return Root.VISUALIZATION;
            }
            throw new PathException(ErrorCode.TOOL_DENIED, "the visualization dir " + visualization.real()
                    + " (or a folder on the way to it) is not a real directory: the path is not followed; nothing ran");
        }
        boolean named = false;
        for (RootSpec r : roots) {
            if (r.holds(lexical)) {
                named = true;
                if (canonical.startsWith(r.real())) {
                    return r.root();
                }
            }
        }
        if (named) {
            // It names a root but its links lead out of it: a symlink escape.
            return Root.EXTERNAL;
        }
        for (RootSpec r : roots) {
            if (canonical.startsWith(r.real())) {
                return r.root();
            }
        }
        return Root.EXTERNAL;
    }

    /** Workspace paths relative with '/', the root itself "."; the others absolute (spec §4, §4a). */
    private String display(Root root, Path canonical) {
        if (root != Root.WORKSPACE) {
            return canonical.toString();
        }
        if (canonical.equals(workspaceReal)) {
            return ".";
        }
        return RelativeNames.of(workspaceReal, canonical);
    }

    private static void requireKind(PathKind kind) {
        if (Objects.requireNonNull(kind, "kind") == PathKind.NONE) {
            throw new IllegalArgumentException("a tool without a path argument has nothing to resolve");
        }
    }
}
