package pi.host.spi;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;
import pi.host.api.ResolvedPath;
import pi.host.api.ToolCall;

/** Every path a call declared, resolved and re-checked by the host, in declaration order. The host's calls implement it. */
@ProviderType
public interface PreparedCall {

    /** The declared paths as the host resolved them right before execution. */
    List<ResolvedPath> paths();

    /** The paths of {@code call}: its declared ones, else its one path argument (or none). */
    static List<ResolvedPath> paths(ToolCall call) {
        if (call instanceof PreparedCall) {
            return ((PreparedCall) call).paths();
        }
        return call.path().map(List::of).orElse(List.of());
    }
}
