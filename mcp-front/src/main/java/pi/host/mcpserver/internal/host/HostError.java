package pi.host.mcpserver.internal.host;

/** A JSON-RPC error the host answered (PROTOCOL.md: -32602 with {@code data.errorCode} where one applies). */
public final class HostError extends Exception {

    private static final long serialVersionUID = 1L;

    /** JSON-RPC internal error. */
    public static final int INTERNAL = -32603;

    private final int code;
    private final String errorCode;

    public HostError(int code, String message, String errorCode) {
        super(message);
        this.code = code;
        this.errorCode = errorCode;
    }

    public int code() {
        return code;
    }

    /** The stable error code of {@code data.errorCode}, or null. */
    public String errorCode() {
        return errorCode;
    }
}
