package pi.host.core.internal.rpc;

/** Where a component registers the RPC methods it answers. */
@FunctionalInterface
public interface MethodTable {
    void put(String name, RpcMethod method);
}
