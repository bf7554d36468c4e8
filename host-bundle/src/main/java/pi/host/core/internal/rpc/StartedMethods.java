package pi.host.core.internal.rpc;

import java.util.concurrent.CompletableFuture;
import pi.host.core.internal.info.StartupGate;

/**
 * RPC methods that run only once the whole host has started ({@link StartupGate}): a request that comes
 * earlier waits on the thread that received it (the stdio reading passes to another thread meanwhile, so
 * control methods are still read), then runs as it would have. A host that stops first answers it as
 * busy, as it answers any request it can no longer run.
 */
final class StartedMethods {

    private StartedMethods() {
    }

    static RpcMethod after(StartupGate gate, RpcMethod method) {
        if (method instanceof RpcMethod.Inline) {
            return method; // never blocks, by contract: nothing of it may wait, the start included
        }
        if (method instanceof RpcMethod.Deferred) {
            RpcMethod.Deferred deferred = (RpcMethod.Deferred) method;
            return (RpcMethod.Deferred) (params, caller, answer) -> {
                if (started(gate, answer)) {
                    deferred.start(params, caller, answer);
                }
            };
        }
        return (params, caller) -> {
            await(gate);
            return method.call(params, caller);
        };
    }

    private static boolean started(StartupGate gate, CompletableFuture<Object> answer) throws InterruptedException {
        try {
            await(gate);
            return true;
        } catch (RpcException e) {
            answer.completeExceptionally(e);
            return false;
        }
    }

    private static void await(StartupGate gate) throws InterruptedException, RpcException {
        if (!gate.ready()) {
            gate.await();
        }
        if (gate.stopping()) {
            throw new RpcException(RpcException.SERVER_BUSY, "the host is shutting down");
        }
    }
}
