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
