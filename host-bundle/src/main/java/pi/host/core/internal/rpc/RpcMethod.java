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

    /**
     * A method whose answer may come later and from another thread: the connection answers when
     * {@code answer} completes, not when {@link #start} returns.
     */
    @FunctionalInterface
    interface Deferred extends RpcMethod {
        /**
         * Starts the call; completes {@code answer} with the result (or an exception, as
         * {@link RpcMethod#call} would throw it) exactly once.
         */
        void start(Params params, Caller caller, java.util.concurrent.CompletableFuture<Object> answer)
                throws Exception;

        @Override
        default Object call(Params params, Caller caller) throws Exception {
            java.util.concurrent.CompletableFuture<Object> answer = new java.util.concurrent.CompletableFuture<>();
            start(params, caller, answer);
            try {
                return answer.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
            }
        }
    }

    /**
     * A deferred method whose {@link #start} runs on the thread that received the request, with no
     * hand-off to the pool: it must never block (no storage, no locks held by a tool, no plugin
     * code) and hands anything that might to a thread of its own. Saves a thread wake-up per call.
     */
    @FunctionalInterface
    interface Inline extends Deferred {
    }

    /** The connection a request arrived on. */
    interface Caller {
        /** Sends a notification to this connection alone. */
        void notify(String method, Object params);

        /** False once the connection is closed: nothing sent to it arrives any more. */
        default boolean open() {
            return true;
        }

        /** Runs {@code action} once when the connection closes (at once when it is closed already). */
        default void onClose(Runnable action) {
        }
    }
}
