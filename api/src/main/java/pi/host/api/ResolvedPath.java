package pi.host.api;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A path argument after the host resolved and confined it: which root it is under and its absolute
 * location. Tools act only on resolved paths, never on the raw argument.
 */
public final class ResolvedPath {

    /** The root a resolved path belongs to. */
    public enum Root {
        /** The session's workspace root (its project, or its scratch dir for a temporary session). */
        WORKSPACE,
        /** The session's scratch dir, the second legal root (spec §4b). */
        SCRATCH,
        /** Outside both roots, allowed by an explicit outside-path permission (spec §4a). */
        EXTERNAL,
        /**
         * The session's visualization dir (spec §4b.1, 0.4.0): absolute paths only, single {@code *.html}
         * names for Write and Edit.
         */
        VISUALIZATION;

        /** The word used in results ({@code workspace}, {@code scratch}, {@code external}, {@code visualization}). */
        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Root root;
    private final Path absolute;
    private final String display;

    public ResolvedPath(Root root, Path absolute, String display) {
        this.root = Objects.requireNonNull(root, "root");
        this.absolute = Objects.requireNonNull(absolute, "absolute");
        this.display = Objects.requireNonNull(display, "display");
        if (!absolute.isAbsolute()) {
            throw new IllegalArgumentException("not absolute: " + absolute);
        }
    }

    public Root root() {
        return root;
    }

    /** The absolute, normalized location (canonical where it exists). */
    public Path absolute() {
        return absolute;
    }

    /**
     * How results show the path: workspace-relative with {@code /} separators for the workspace
     * root, the absolute path for scratch and external paths.
     */
    public String display() {
        return display;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResolvedPath && ((ResolvedPath) o).root == root
                && ((ResolvedPath) o).absolute.equals(absolute);
    }

    @Override
    public int hashCode() {
        return Objects.hash(root, absolute);
    }

    @Override
    public String toString() {
        return root.wire() + ":" + display;
    }
}
