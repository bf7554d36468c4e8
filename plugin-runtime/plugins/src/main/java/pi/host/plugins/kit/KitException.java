package pi.host.plugins.kit;

/**
 * Why a kit command could not do its job, in words for the plugin author, with what kind of
 * trouble it was: input the author must change, a failure while working, or a build that ran out
 * of time or was cancelled.
 */
public final class KitException extends Exception {

    private static final long serialVersionUID = 1L;

    /** What went wrong, as callers map it (exit code 2 vs 1; INVALID_ARGUMENT, TOOL_FAILED, ...). */
    public enum Kind {
        /** The author gave something the command cannot work with (a bad id, a folder that is no module). */
        USAGE,
        /** The command failed while working (a build that failed, a disk error). */
        FAILED,
        /** The build ran past its time. */
        TIMEOUT,
        /** The caller cancelled the command. */
        CANCELLED
    }

    private final Kind kind;
    private final String detail;

    KitException(Kind kind, String message, String detail, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.detail = detail == null ? "" : detail;
    }

    static KitException usage(String message) {
        return new KitException(Kind.USAGE, message, "", null);
    }

    static KitException failed(String message, String detail, Throwable cause) {
        return new KitException(Kind.FAILED, message, detail, cause);
    }

    public Kind kind() {
        return kind;
    }

    /** Supporting output (e.g. the end of a build log), or empty. */
    public String detail() {
        return detail;
    }
}
