package pi.host.core.internal.plan;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.store.StorageException;

/** {@code plans.pending} and {@code plans.resolve}. */
@Component(service = PlanMethods.class)
public final class PlanMethods {

    private final PlanService plans;

    @Activate
    public PlanMethods(@Reference PlanService plans) {
        this.plans = plans;
    }

    public void register(MethodTable table) {
        table.put("plans.pending", (p, c) -> {
            try {
                return plans.pendingView(p.optString("sessionId").orElse(null));
            } catch (StorageException e) {
                throw RpcException.storage(e);
            }
        });
        table.putControl("plans.resolve", (p, c) -> {
            try {
                return plans.resolve(p.requireString("approvalId"), p.optString("sessionId").orElse(null),
                        p.requireString("decision"), p.optString("permissionMode").orElse(null));
            } catch (PlanStore.Refused e) {
                throw RpcException.invalidParams(e.getMessage());
            } catch (StorageException e) {
                throw RpcException.storage(e);
            }
        });
    }
}
