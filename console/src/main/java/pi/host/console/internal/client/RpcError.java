package pi.host.console.internal.client;

/** A JSON-RPC error answer from the host: the protocol's code, its message, and {@code data.errorCode} when given. */
public final class RpcError extends Exception {

    private static final long serialVersionUID = 1L;

    /** JSON-RPC "method not found": the host has no such method (e.g. no MCP bridge installed). */
    public static final int METHOD_NOT_FOUND = -32601;

    private final int code;
    private final String errorCode;

    public RpcError(int code, String message, String errorCode) {
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

    /** One line for the screen: the stable code when there is one, else the JSON-RPC code. */
    public String describe() {
        return (errorCode != null ? errorCode : "error " + code) + ": " + getMessage();
    }
}
