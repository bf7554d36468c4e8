package pi.host.core.internal.rpc;

import pi.host.api.ErrorCode;

/** A JSON-RPC protocol error answered to the client (never a tool failure: those are results). */
public final class RpcException extends Exception {

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** Server-defined: the host is shutting down or has too many requests in flight. */
    public static final int SERVER_BUSY = -32000;

    private static final long serialVersionUID = 1L;

    private final int code;
    private final ErrorCode errorCode;

    public RpcException(int code, String message) {
        this(code, message, null);
    }

    public RpcException(int code, String message, ErrorCode errorCode) {
        super(message, null, false, false);
        this.code = code;
        this.errorCode = errorCode;
    }

    /** Invalid params, with the stable error code that names the problem. */
    public static RpcException invalidParams(ErrorCode errorCode, String message) {
        return new RpcException(INVALID_PARAMS, message, errorCode);
    }

    /** The store failed: the request did nothing. */
    public static RpcException storage(Exception cause) {
        return new RpcException(SERVER_BUSY, "storage error: " + cause.getMessage(), ErrorCode.STORAGE_ERROR);
    }

    /** Invalid params without a more specific error code. */
    public static RpcException invalidParams(String message) {
        return new RpcException(INVALID_PARAMS, message, ErrorCode.INVALID_ARGUMENT);
    }

    public int code() {
        return code;
    }

    /** The stable error code for {@code data.errorCode}, or null. */
    public ErrorCode errorCode() {
        return errorCode;
    }
}
