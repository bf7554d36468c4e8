package pi.host.core.internal.worktree;

import pi.host.api.ErrorCode;

/** A worktree operation refused or failed, with the stable code the client gets. */
public final class WorktreeException extends Exception {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public WorktreeException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
