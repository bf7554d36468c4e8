package pi.host.api;

/** The stable error codes a tool result can carry. Names are part of the wire contract. */
public enum ErrorCode {
    INVALID_ARGUMENT,
    UNKNOWN_TOOL,
    TOOL_NOT_ACTIVE,
    MODE_DENIED,
    TOOL_DENIED,
    TOOL_TIMEOUT,
    TOOL_FAILED,
    TOOL_ABORTED,
    PLUGIN_DISABLED_IN_PLAN,
    PERMISSION_DENIED,
    SESSION_NOT_FOUND,
    STORAGE_ERROR,
    SHELL_NOT_FOUND,
    COMMAND_SHELL_CHANGED,
    COMMAND_SHELL_INVALID,
    EDIT_PARSE_FAILED,
    EDIT_LINES_UNSEEN,
    EDIT_TAG_MISMATCH,
    EDIT_RANGE_INVALID,
    EDIT_RETRY_LIMIT,
    ROLLBACK_CONFLICT,
    BACKGROUND_LIMIT,
    BACKGROUND_HOST_LIMIT,
    WORKTREE_MISSING,
    /** The worktree's {@code .git} no longer leads to the registration the host made (0.4.0). */
    WORKTREE_INVALID,
    /** An isolated session cannot be had: no git, not a git project, no commit yet (0.4.0). */
    WORKTREE_UNAVAILABLE,
    /** A merge stopped at conflicts; they stay in the worktree, their files named (0.4.0). */
    WORKTREE_CONFLICT,
    /** A merge preview token that is unknown or no longer describes the worktree and the project (0.4.0). */
    WORKTREE_STALE,
    /** The project could not be fast-forwarded (its own changes would be overwritten, or it moved) (0.4.0). */
    WORKTREE_MERGE_FAILED,
    PLAN_REQUIRES_INTERACTIVE_SESSION,
    MCP_SERVER_UNAVAILABLE,
    MCP_SELECTION_INVALID,
    PAYLOAD_TOO_LARGE,
    PROVIDER_TIMEOUT,
    /**
     * The session already has as many permission cards and questions waiting for the user as the
     * host allows; the call was refused before a card was shown and nothing ran (0.3.0).
     */
    CARD_LIMIT
}
