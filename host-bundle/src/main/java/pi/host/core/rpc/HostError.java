package pi.host.core.rpc;

/**
 * A JSON-RPC error the host answered to an in-process client: the protocol's code, its message,
 * and the stable {@code data.errorCode} where one applies (PROTOCOL.md).
 */
public final class HostError extends Exception {

    private static final long serialVersionUID = 1L;

    /** JSON-RPC "method not found": the host has no such method (e.g. no MCP bridge installed). */
    public static final int METHOD_NOT_FOUND = -32601;

    /** JSON-RPC internal error. */
    public static final int INTERNAL = -32603;

    /** The host stopped (or the client was closed) before it answered. */
    public static final int STOPPED = -32000;

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

    /** The stable error code ({@code SESSION_NOT_FOUND}, {@code ROLLBACK_CONFLICT}, ...), or null. */
    public String errorCode() {
        return errorCode;
    }

    /** One line for a person: the stable code when there is one, else the JSON-RPC code, then the message. */
    public String describe() {
        return (errorCode != null ? errorCode : "error " + code) + ": " + getMessage();
    }
}
