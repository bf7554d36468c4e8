package pi.host.core.internal.git;

/** A git command could not run, failed, or the repository is not one the host may work on. */
public final class GitException extends Exception {

    private static final long serialVersionUID = 1L;

    public GitException(String message) {
        super(message);
    }

    public GitException(String message, Throwable cause) {
        super(message, cause);
    }
}
