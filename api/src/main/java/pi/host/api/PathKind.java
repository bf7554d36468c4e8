package pi.host.api;

/** What a tool's path argument must name (spec §4); the host checks it before the tool runs. */
public enum PathKind {
    /** No path argument. */
    NONE,
    /** An existing regular file (Read, BrowserPreview); a directory is INVALID_ARGUMENT with a Glob hint. */
    EXISTING_FILE,
    /** A directory to search under (Glob). */
    DIRECTORY,
    /** One file or a directory tree (Grep). */
    FILE_OR_DIRECTORY,
    /** A file that may not exist yet; its parents are created inside the root (Write, Edit). */
    WRITABLE_FILE
}
