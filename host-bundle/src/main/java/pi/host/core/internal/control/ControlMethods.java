package pi.host.core.internal.control;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;

/** {@code asks.pending} and {@code asks.resolve}. */
@Component(service = ControlMethods.class)
public final class ControlMethods {

    private final AskService asks;

    @Activate
    public ControlMethods(@Reference AskService asks) {
        this.asks = asks;
    }

    public void register(MethodTable table) {
        table.put("asks.pending", (p, c) -> asks.pendingView(p.optString("sessionId").orElse(null)));
        table.putControl("asks.resolve", (p, c) -> {
            String problem = asks.resolve(p.requireString("requestId"), p.get("answers")).orElse(null);
            if (problem != null) {
                throw RpcException.invalidParams(problem);
            }
            return Map.of();
        });
    }
}
