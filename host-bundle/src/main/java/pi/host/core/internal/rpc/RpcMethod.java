package pi.host.core.internal.rpc;

/** One JSON-RPC method of the host. */
@FunctionalInterface
public interface RpcMethod {

    /**
     * Answers one call.
     *
     * @param params the request's params: an object (empty when absent)
     * @param caller the connection the request came on, for notifications addressed to it
     * @return the result, any value Jackson can write (records, maps, JsonNode)
     * @throws RpcException for invalid params and other protocol-level failures
     */
    Object call(Params params, Caller caller) throws Exception;

    /** The connection a request arrived on. */
    interface Caller {
        /** Sends a notification to this connection alone. */
        void notify(String method, Object params);
    }
}
