package pi.host.core.internal.rpc;

/** Where a component registers the RPC methods it answers. */
@FunctionalInterface
public interface MethodTable {

    /** A method like any other: it counts against the connection's in-flight bound. */
    void put(String name, RpcMethod method);

    /**
     * A control method: it ends or answers something that waits (a permission card, a question, a
     * plan approval, a running call, the host itself). The host's endpoint never refuses or queues it
     * by an admission limit, so the user can always answer or stop what the other requests wait for;
     * in return it must never wait itself on a card, a tool, admission or another request. A table
     * that makes no such difference (a test's) takes it as any other method.
     */
    default void putControl(String name, RpcMethod method) {
        put(name, method);
    }
}
