package pi.host.core.internal.approval;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;

/** {@code permissions.pending} and {@code permissions.resolve}. */
@Component(service = PermissionMethods.class)
public final class PermissionMethods {

    private final ApprovalService approvals;

    @Activate
    public PermissionMethods(@Reference ApprovalService approvals) {
        this.approvals = approvals;
    }

    public void register(MethodTable table) {
        table.put("permissions.pending", (p, c) -> Map.of("requests",
                approvals.pending(p.optString("sessionId").orElse(null))));
        table.putControl("permissions.resolve", (p, c) -> {
            String requestId = p.requireString("requestId");
            String word = p.requireString("decision");
            ApprovalService.Decision decision = ApprovalService.Decision.parse(word).orElseThrow(
                    () -> RpcException.invalidParams("decision must be one of allow-once, allow-session, deny"));
            if (!approvals.resolve(requestId, decision)) {
                throw RpcException.invalidParams("no pending permission request " + requestId
                        + " (already resolved, cancelled, or never asked)");
            }
            return Map.of();
        });
    }
}
