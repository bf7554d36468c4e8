package pi.host.core.internal.audit;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;
import pi.host.core.internal.store.StorageException;

/** {@code audit.query}: rows newest first, filtered by session, tool and start time. */
@Component(service = AuditMethods.class)
public final class AuditMethods {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 10_000;

    private final AuditLog audit;

    @Activate
    public AuditMethods(@Reference AuditLog audit) {
        this.audit = audit;
    }

    public void register(MethodTable table) {
        table.put("audit.query", (p, c) -> {
            try {
                return Map.of("rows", audit.query(p.optString("sessionId").orElse(null),
                        p.optString("toolName").orElse(null), p.optLong("since", 0, Long.MAX_VALUE).orElse(null),
                        p.optLong("limit", 1, MAX_LIMIT).orElse((long) DEFAULT_LIMIT).intValue()));
            } catch (StorageException e) {
                throw RpcException.storage(e);
            }
        });
    }
}
