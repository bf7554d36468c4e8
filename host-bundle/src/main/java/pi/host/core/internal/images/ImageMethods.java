package pi.host.core.internal.images;

import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import pi.host.core.internal.rpc.MethodTable;
import pi.host.core.internal.rpc.RpcException;

/**
 * {@code images.attach} (the calling connection makes images), {@code images.resolve} (a control method:
 * it ends what a GenerateImages call waits for, and never waits itself) and {@code images.pending}; the
 * last two see only the requests sent to the calling connection.
 */
@Component(service = ImageMethods.class)
public final class ImageMethods {

    private final ImageRequests requests;

    @Activate
    public ImageMethods(@Reference ImageRequests requests) {
        this.requests = requests;
    }

    public void register(MethodTable table) {
        table.put("images.attach", (p, c) -> {
            requests.attach(c);
            return Map.of("attached", true);
        });
        table.put("images.pending", (p, c) -> Map.of("requests",
                requests.pending(c, p.optString("sessionId").orElse(null))));
        table.putControl("images.resolve", (p, c) -> {
            String problem = requests.resolve(c, p.requireString("requestId"), p.get("images"), p.get("error"))
                    .orElse(null);
            if (problem != null) {
                throw RpcException.invalidParams(problem);
            }
            return Map.of();
        });
    }
}
