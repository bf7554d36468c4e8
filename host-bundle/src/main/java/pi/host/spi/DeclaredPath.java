package pi.host.spi;

import java.util.Locale;
import java.util.Objects;
import pi.host.api.PathKind;

/**
 * One path a call will touch, as the tool names it before policy: the argument text, what it must be,
 * and what the call does to it. The host resolves it against the session's roots, decides on it
 * (outside paths, the data dir, repository control files), asks, re-checks and locks it, and lists it
 * in the audit row; the tool then gets it back resolved ({@link PreparedCall#paths}).
 *
 * @param raw the argument as the model sent it (relative to the workspace root unless absolute);
 *     {@code "."} for an optional directory argument that was left out
 * @param kind what it must name; not {@link PathKind#NONE}
 * @param access what the call does there
 */
public record DeclaredPath(String raw, PathKind kind, Access access) {

    /** What a call does to a path. */
    public enum Access {
        /** Reads it (a file, or a tree below a directory). */
        READ,
        /** Creates or replaces it (a directory: below it). */
        WRITE,
        /** Creates it; it must not exist (Edit's MV destination). */
        CREATE,
        /** Removes it (Edit's REM, MV's source). */
        DELETE;

        /** The lower-case word of audit rows. */
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** True for every access that changes the file system. */
        public boolean changes() {
            return this != READ;
        }
    }

    public DeclaredPath {
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(access, "access");
        if (Objects.requireNonNull(kind, "kind") == PathKind.NONE) {
            throw new IllegalArgumentException("a declared path names something");
        }
    }
}
